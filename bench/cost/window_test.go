package cost_test

import (
	"math"
	"testing"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// Scraped once a second, a window's cost comes from the scrapes around it,
// scaled to its length: here 2 s of a window inside 3 s of scrapes, at a
// tenth of a core and 100 acquisitions a second, each waiting 0.1 ms.
func TestMetricsCost(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ser sampler.Series
	for i := range 4 {
		ser.Samples = append(ser.Samples, sampler.Sample{
			At:        t0.Add(time.Duration(i) * time.Second),
			CPU:       time.Duration(i) * 100 * time.Millisecond,
			CPUBehind: 30 * time.Millisecond,
			RSSBytes:  50 << 20,
			Pool:      &sampler.Pool{Acquires: uint64(100 * i), AcquireWait: time.Duration(i) * 10 * time.Millisecond, MaxConns: 20},
		})
	}
	from, to := t0.Add(500*time.Millisecond), t0.Add(2500*time.Millisecond)
	sum, pool := cost.MetricsCost(ser, from, to, 180, 200)

	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	if !sum.Available || sum.Source != results.SourceMetrics || sum.PID != 0 {
		t.Errorf("cost %+v, want available from metrics without a pid", sum)
	}
	// 0.2 s of CPU over the window, for 180 successful requests.
	if !near(sum.CPUMean, 0.1) || !near(sum.CPUSeconds, 0.2) || !near(sum.CPUMsPerRequest, 0.2*1000/180) {
		t.Errorf("CPU mean %v, seconds %v, ms per request %v; want 0.1, 0.2, %v", sum.CPUMean, sum.CPUSeconds, sum.CPUMsPerRequest, 0.2*1000/180)
	}
	// A reading's 30 ms, scaled as the CPU time is.
	if !near(sum.CPUResolutionMsPerRequest, 20.0/180) || !near(sum.RSSMeanMB, 50*(1<<20)/results.BytesPerMB) {
		t.Errorf("resolution %v ms per request, RSS %v MB; want %v, %v", sum.CPUResolutionMsPerRequest, sum.RSSMeanMB, 20.0/180, 50*(1<<20)/results.BytesPerMB)
	}
	want := results.PoolCost{Acquires: 200, AcquireWaitSeconds: 0.02, WaitMsPerRequest: 0.1, MaxConns: 20}
	if pool == nil || pool.Acquires != want.Acquires || !near(pool.AcquireWaitSeconds, want.AcquireWaitSeconds) ||
		!near(pool.WaitMsPerRequest, want.WaitMsPerRequest) || pool.MaxConns != want.MaxConns {
		t.Errorf("pool %+v, want %+v", pool, want)
	}

	if sum, pool := cost.MetricsCost(sampler.Series{Samples: ser.Samples[:1]}, from, to, 180, 200); sum.Available || pool != nil {
		t.Errorf("one scrape: cost %+v, pool %+v; want neither", sum, pool)
	}
}
