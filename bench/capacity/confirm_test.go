package capacity_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// The runs a confirmation can be: one that meets the capacity SLO, one
// slow (p99 over it), one saturated (half its rate), one that kept 96% of
// its rate — ok by the fixed profiles' verdict, short of the 99% a
// capacity needs — and two not measured.
const (
	meets     = "meets"
	slow      = "slow"
	saturated = "saturated"
	lossy     = "96% of the rate"
	failed    = results.VerdictFailed
	skipped   = results.VerdictSkipped
)

// confirmSLO is the SLO of the confirmations: the capacity search's, with
// a 50 ms p99.
var confirmSLO = results.CapacitySLO(50 * time.Millisecond)

// confirmation is a run of kind at rate, its verdict as the runner gives
// it (Result.Judge).
func confirmation(kind string, rate float64) results.Result {
	r := results.Result{TargetRate: rate, Throughput: rate, SuccessRatio: 1, Latency: results.Latency{P99: 12}}
	switch kind {
	case failed, skipped:
		r.Verdict = kind
		return r
	case slow:
		r.Latency.P99 = 80
	case saturated:
		r.Throughput, r.Latency.P99 = rate/2, 3000
	case lossy:
		r.Throughput = 0.96 * rate
	}
	r.Judge(confirmSLO.P99)
	return r
}

// confirmations is a ConfirmFunc whose runs are of the given kinds in
// turn, and the rates and tries it was asked for.
type confirmations struct {
	kinds []string
	rates []float64
	tries []int
}

func (c *confirmations) run(_ context.Context, rate float64, try int) results.Result {
	c.rates, c.tries = append(c.rates, rate), append(c.tries, try)
	return confirmation(c.kinds[len(c.rates)-1], rate)
}

func TestConfirm(t *testing.T) {
	tests := []struct {
		name  string
		kinds []string
		// wantRates are the rates confirmed, in order; the capacity stands
		// on wantRate, run at index wantRun of them.
		wantRates []float64
		wantRate  float64
		wantRun   int
		wantHeld  bool
		// wantMissed are the indexes of the runs in Missed.
		wantMissed []int
	}{
		{"the first holds", []string{meets}, []float64{1000}, 1000, 0, true, nil},
		{"one step down", []string{slow, meets}, []float64{1000, 900}, 900, 1, true, []int{0}},
		{"two steps down", []string{slow, saturated, meets}, []float64{1000, 900, 810}, 810, 2, true, []int{0, 1}},
		// A run at 96% of its rate is ok by its verdict but misses the
		// capacity's 99%: the probes' rule, not the verdict, decides.
		{"96% of the rate is a miss", []string{lossy, meets}, []float64{1000, 900}, 900, 1, true, []int{0}},
		// Three misses: the capacity stays the probes' rate, not held, and
		// the lower runs say the app missed there too.
		{"none holds", []string{slow, lossy, slow}, []float64{1000, 900, 810}, 1000, 0, false, []int{1, 2}},
		// A run without a verdict ends the steps: it says nothing of its
		// rate, and only a first one stands for the confirmation.
		{"the first fails", []string{failed}, []float64{1000}, 1000, 0, false, nil},
		{"interrupted after a miss", []string{slow, skipped}, []float64{1000, 900}, 1000, 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &confirmations{kinds: tt.kinds}
			got := capacity.Confirm(context.Background(), confirmSLO, 1000, c.run)
			if diff := cmp.Diff(tt.wantRates, c.rates, approx); diff != "" {
				t.Errorf("rates confirmed (-want +got):\n%s", diff)
			}
			for i, try := range c.tries {
				if try != i+1 {
					t.Errorf("run %d was try %d", i+1, try)
				}
			}
			if !cmp.Equal(got.Rate, tt.wantRate, approx) {
				t.Errorf("rate %v, want %v", got.Rate, tt.wantRate)
			}
			if got.Held != tt.wantHeld {
				t.Errorf("held %v, want %v", got.Held, tt.wantHeld)
			}
			if want := tt.wantRates[tt.wantRun]; !cmp.Equal(got.Run.TargetRate, want, approx) {
				t.Errorf("run at %v, want the one at %v (%s)", got.Run.TargetRate, want, tt.kinds[tt.wantRun])
			}
			var missed []float64
			for _, r := range got.Missed {
				missed = append(missed, r.TargetRate)
			}
			var want []float64
			for _, i := range tt.wantMissed {
				want = append(want, tt.wantRates[i])
			}
			if diff := cmp.Diff(want, missed, approx); diff != "" {
				t.Errorf("missed confirmations' rates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfirmAt96PercentIsNoCapacity: a full-length run that kept 96% of
// its rate, every request a success and its p99 well within the SLO, has
// the verdict ok, yet is no capacity — not even after the steps down,
// when every one keeps 96%: the probes that found the rate needed 99%.
func TestConfirmAt96PercentIsNoCapacity(t *testing.T) {
	if r := confirmation(lossy, 1000); r.Verdict != results.VerdictOK {
		t.Fatalf("a run at 96%% of its rate has the verdict %s (%s), want ok: the fixed profiles' verdict is not the capacity's rule", r.Verdict, r.Reason)
	}
	c := &confirmations{kinds: []string{lossy, lossy, lossy}}
	got := capacity.Confirm(context.Background(), confirmSLO, 1000, c.run)
	if got.Held || got.Rate != 1000 || len(c.rates) != capacity.MaxConfirmations {
		t.Errorf("held %v at %v after %d runs; want no capacity held, the probes' 1000 req/s kept, %d runs",
			got.Held, got.Rate, len(c.rates), capacity.MaxConfirmations)
	}
	if j := confirmSLO.JudgeRun(&got.Run); j.Met || j.Why != "throughput 960 req/s under 99% of 1000 req/s" {
		t.Errorf("judgement of the run %+v, want a miss on throughput", j)
	}
}

// TestConfirmStopsWhenCancelled: a miss after the context ended is not
// followed by another run.
func TestConfirmStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	got := capacity.Confirm(ctx, confirmSLO, 500, func(context.Context, float64, int) results.Result {
		runs++
		cancel()
		return results.Result{TargetRate: 500, Verdict: results.VerdictSlow}
	})
	if runs != 1 || got.Held || got.Rate != 500 || len(got.Missed) != 0 {
		t.Errorf("%d runs, outcome %+v; want one run that missed, the capacity at 500 not held", runs, got)
	}
}
