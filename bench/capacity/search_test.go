package capacity_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// limitedApp is a pure ProbeFunc of an app that meets the SLO up to limit
// req/s and queues above it; its CPU grows with the rate, one core at
// 100 req/s, so each probe's stop detail is its own.
func limitedApp(limit float64) capacity.ProbeFunc {
	return func(_ context.Context, rate float64) (results.Probe, error) {
		p := results.Probe{
			AchievedRate: rate, Throughput: rate, SuccessRatio: 1, P50: 2, P99: 10,
			AppCPU: min(rate/100, 1), AppCPUAvailable: true,
			MachineCPU: min(rate/100, 1) + 0.1, MachineCPUAvailable: true,
			RunnerCPU: 0.05,
		}
		if rate > limit {
			p.Throughput, p.P99 = limit, 500
		}
		return p, nil
	}
}

// rates are the rates of probes, in order.
func rates(probes []results.Probe) []float64 {
	var r []float64
	for _, p := range probes {
		r = append(r, p.Rate)
	}
	return r
}

var approx = cmpopts.EquateApprox(1e-9, 0)

func TestSearchFound(t *testing.T) {
	cfg := config()
	cfg.Start, cfg.Growth, cfg.Precision = 10, 4, 0.5
	out, err := capacity.Search(context.Background(), cfg, limitedApp(50))
	if err != nil {
		t.Fatal(err)
	}
	// Ramp 10, 40 (met), 160 (missed twice); then the geometric middles
	// of [40, 160] and [40, 80], each missed twice, until 40·√2 is within
	// 1.5 of 40.
	want := []float64{10, 40, 160, 160, 80, 80, 40 * math.Sqrt2, 40 * math.Sqrt2}
	if diff := cmp.Diff(want, rates(out.Probes), approx); diff != "" {
		t.Errorf("probe rates (-want +got):\n%s", diff)
	}
	if out.Status != results.CapacityFound || out.Rate != 40 || math.Abs(out.Upper-40*math.Sqrt2) > 1e-9 {
		t.Errorf("status %q, rate %v, upper %v; want found, 40, %v", out.Status, out.Rate, out.Upper, 40*math.Sqrt2)
	}
	for _, p := range out.Probes {
		if p.Met != (p.Rate <= 50) || p.Met != (p.Why == "") {
			t.Errorf("probe at %v: met %v, why %q", p.Rate, p.Met, p.Why)
		}
	}
	// Judged on the lowest missed rate (56.6 req/s, 0.57 of a core: CPU
	// to spare), not on the ramp's (160, a full core).
	upper := out.Probes[len(out.Probes)-1]
	reason, detail := capacity.StopReason(cfg, upper)
	if out.StopReason != reason || out.StopDetail != detail || reason != results.StopQueueing {
		t.Errorf("stop %q (%s), want %q (%s)", out.StopReason, out.StopDetail, results.StopQueueing, detail)
	}
}

func TestSearchPrecision(t *testing.T) {
	for _, limit := range []float64{10, 37, 99.5, 100, 640, 999} {
		cfg := config()
		out, err := capacity.Search(context.Background(), cfg, limitedApp(limit))
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != results.CapacityFound || out.Rate > limit || out.Upper <= limit || out.Upper > out.Rate*(1+cfg.Precision) {
			t.Errorf("limit %v: status %q, bracket [%v, %v], want found within %v of it", limit, out.Status, out.Rate, out.Upper, cfg.Precision)
		}
	}
}

func TestSearchCapped(t *testing.T) {
	cfg := config()
	cfg.Start, cfg.Growth, cfg.Max = 10, 3, 100
	out, err := capacity.Search(context.Background(), cfg, limitedApp(1e6))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{10, 30, 90, 100}, rates(out.Probes), approx); diff != "" {
		t.Errorf("probe rates (-want +got), the last ramp step the cap:\n%s", diff)
	}
	if out.Status != results.CapacityCapped || out.Rate != 100 || out.Upper != 0 || out.StopReason != results.StopCap {
		t.Errorf("status %q, rate %v, upper %v, stop %q; want capped at 100", out.Status, out.Rate, out.Upper, out.StopReason)
	}
	const detail = "every probe up to the cap of 100 req/s met the SLO: the capacity is at least 100 req/s"
	if out.StopDetail != detail {
		t.Errorf("detail %q, want %q", out.StopDetail, detail)
	}
}

func TestSearchMissAtCap(t *testing.T) {
	cfg := config()
	cfg.Start, cfg.Growth, cfg.Max, cfg.Precision = 10, 3, 100, 0.2
	out, err := capacity.Search(context.Background(), cfg, limitedApp(95))
	if err != nil {
		t.Fatal(err)
	}
	// The cap missed twice: bisect [90, 100], already within 1.2 of each
	// other.
	if diff := cmp.Diff([]float64{10, 30, 90, 100, 100}, rates(out.Probes), approx); diff != "" {
		t.Errorf("probe rates (-want +got):\n%s", diff)
	}
	if out.Status != results.CapacityFound || out.Rate != 90 || out.Upper != 100 || out.StopReason != results.StopAppCPU {
		t.Errorf("status %q, bracket [%v, %v], stop %q; want found in [90, 100], app-cpu", out.Status, out.Rate, out.Upper, out.StopReason)
	}
}

func TestSearchNone(t *testing.T) {
	out, err := capacity.Search(context.Background(), config(), limitedApp(5))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Probes) != 2 || out.Status != results.CapacityNone || out.Rate != 0 || out.Upper != 10 {
		t.Errorf("%d probes, status %q, rate %v, upper %v; want 2, none, 0, 10", len(out.Probes), out.Status, out.Rate, out.Upper)
	}
	if out.StopReason != results.StopQueueing || !strings.Contains(out.StopDetail, "app 0.10 of 1 core") {
		t.Errorf("stop %q (%s), want queueing judged on the probe at 10 req/s", out.StopReason, out.StopDetail)
	}
}

func TestSearchStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	app := limitedApp(100)
	probes := 0
	out, err := capacity.Search(ctx, config(), func(ctx context.Context, rate float64) (results.Probe, error) {
		if probes++; probes == 3 {
			cancel()
		}
		return app(ctx, rate)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]float64{10, 20, 40}, rates(out.Probes), approx); diff != "" {
		t.Errorf("probe rates (-want +got), none after the cancel:\n%s", diff)
	}
	if out.Status != "" || out.Rate != 40 {
		t.Errorf("status %q, rate %v; want no status and the rate met so far, 40", out.Status, out.Rate)
	}
}

func TestSearchProbeError(t *testing.T) {
	app := limitedApp(100)
	broken := errors.New("connection refused")
	out, err := capacity.Search(context.Background(), config(), func(ctx context.Context, rate float64) (results.Probe, error) {
		if rate > 30 {
			return results.Probe{}, broken
		}
		return app(ctx, rate)
	})
	if !errors.Is(err, broken) || !strings.Contains(err.Error(), "40 req/s") {
		t.Fatalf("error %v, want the probe's, naming 40 req/s", err)
	}
	if diff := cmp.Diff([]float64{10, 20}, rates(out.Probes), approx); diff != "" {
		t.Errorf("probe rates (-want +got):\n%s", diff)
	}
}

func TestSearchInvalidConfig(t *testing.T) {
	cfg := config()
	cfg.Growth = 1
	_, err := capacity.Search(context.Background(), cfg, func(context.Context, float64) (results.Probe, error) {
		t.Error("probed with an invalid config")
		return results.Probe{}, nil
	})
	if err == nil || !strings.Contains(err.Error(), "growth 1") {
		t.Errorf("error %v, want one naming the growth", err)
	}
}

// tries is a ProbeFunc of limitedApp(limit) whose probes at spiky miss
// by a spike on the tries listed (1-based, counted per rate), and every
// call's time.
type tries struct {
	limit  float64
	spiky  float64
	misses []int
	calls  map[float64]int
	at     []time.Time
}

func (tr *tries) probe(ctx context.Context, rate float64) (results.Probe, error) {
	tr.at = append(tr.at, time.Now())
	p, _ := limitedApp(tr.limit)(ctx, rate)
	if tr.calls == nil {
		tr.calls = map[float64]int{}
	}
	tr.calls[rate]++
	if rate == tr.spiky && slices.Contains(tr.misses, tr.calls[rate]) {
		p.P99 = 90
	}
	return p, nil
}

// A rate is decided by two of up to three probes: one spike among met
// tries does not make it a miss, two do.
func TestSearchTriesAMissAgain(t *testing.T) {
	tests := []struct {
		name   string
		misses []int
		tries  []int
		met    bool
	}{
		{"met at once", nil, []int{1}, true},
		{"one spike, then met twice", []int{1}, []int{1, 2, 3}, true},
		{"met at once: no second try to spike", []int{2}, []int{1}, true},
		{"a spike, met, a spike", []int{1, 3}, []int{1, 2, 3}, false},
		{"two spikes", []int{1, 2}, []int{1, 2}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config()
			cfg.Start, cfg.Growth, cfg.Max = 20, 2, 40
			tr := &tries{limit: 1000, spiky: 20, misses: tt.misses}
			out, err := capacity.Search(context.Background(), cfg, tr.probe)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range out.Probes {
				if p.Rate == 20 {
					got = append(got, p.Try)
				}
			}
			if !slices.Equal(got, tt.tries) {
				t.Errorf("tries at 20 req/s %v, want %v", got, tt.tries)
			}
			if met := out.Rate >= 20; met != tt.met {
				t.Errorf("status %q, bracket [%v, %v]: 20 req/s met %v, want %v", out.Status, out.Rate, out.Upper, met, tt.met)
			}
		})
	}
}

// After a probe that missed badly the search waits MissPause before the
// next; after one that missed by a hair it does not. time.After never
// fires early, so the wait's lower bound holds on any machine.
func TestSearchPausesAfterABadMiss(t *testing.T) {
	const pause = 50 * time.Millisecond
	cfg := config()
	cfg.Start, cfg.Growth, cfg.Max, cfg.Precision, cfg.MissPause = 20, 2, 40, 0.5, pause
	tr := &tries{limit: 30} // 40 req/s queues: a bad miss, twice
	out, err := capacity.Search(context.Background(), cfg, tr.probe)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{20, 40, 40, 28.28}, rates(out.Probes), cmpopts.EquateApprox(0, 0.01)); diff != "" {
		t.Fatalf("probe rates (-want +got):\n%s", diff)
	}
	for i := 2; i < len(tr.at); i++ {
		if d := tr.at[i].Sub(tr.at[i-1]); d < pause {
			t.Errorf("probe %d came %v after a bad miss, want at least %v", i+1, d, pause)
		}
	}
	if !capacity.MissedBadly(cfg, out.Probes[1]) {
		t.Errorf("a probe that queued did not miss badly: %+v", out.Probes[1])
	}
	hair := out.Probes[0]
	hair.Met, hair.P99 = false, 60
	if capacity.MissedBadly(cfg, hair) {
		t.Errorf("a p99 of 60 ms against a 50 ms SLO missed badly")
	}
}

// A search cancelled during its pause ends at once with the context's
// error.
func TestSearchPauseEndsWithContext(t *testing.T) {
	cfg := config()
	cfg.Start, cfg.Growth, cfg.Max, cfg.MissPause = 20, 2, 40, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	tr := &tries{limit: 30}
	_, err := capacity.Search(ctx, cfg, func(ctx context.Context, rate float64) (results.Probe, error) {
		if rate == 40 {
			defer cancel()
		}
		return tr.probe(ctx, rate)
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// The stop reason is judged on the worst miss of the rate that decided
// the search: here the first try, which queued on a full core, not the
// third, which missed by a late tail with CPU to spare.
func TestSearchJudgesTheWorstMiss(t *testing.T) {
	cfg := config()
	cfg.Start, cfg.Growth, cfg.Max = 20, 2, 40
	tries := 0
	out, err := capacity.Search(context.Background(), cfg, func(ctx context.Context, rate float64) (results.Probe, error) {
		p, _ := limitedApp(1000)(ctx, rate)
		if rate == 40 {
			switch tries++; tries {
			case 1:
				p.Throughput, p.P99, p.AppCPU, p.MachineCPU = 30, 800, 0.97, 1.2
			case 3:
				p.P99, p.AppCPU, p.MachineCPU = 90, 0.5, 0.7
			}
		}
		return p, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Upper != 40 || out.StopReason != results.StopAppCPU {
		t.Errorf("upper %v, stop %q (%s); want 40, judged on the first try: %q", out.Upper, out.StopReason, out.StopDetail, results.StopAppCPU)
	}
}
