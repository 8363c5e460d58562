package cost_test

import (
	"math"
	"testing"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/sampler"
)

// A Node app held its event loop 300 ms once in the window's first second
// and scavenged 20 times a second for 2 ms each: the scrapes around a 2 s
// window give the window's rates and its longest delay.
func TestPausesCost(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	loops := []sampler.LoopDelay{
		{Min: 10 * time.Millisecond, Mean: 11 * time.Millisecond, P99: 12 * time.Millisecond, Max: 15 * time.Millisecond},
		{Min: 10 * time.Millisecond, Mean: 14300 * time.Microsecond, P99: 10500 * time.Microsecond, Max: 310 * time.Millisecond},
		{Min: 10 * time.Millisecond, Mean: 10 * time.Millisecond, P99: 10 * time.Millisecond, Max: 10 * time.Millisecond},
		{Min: 10 * time.Millisecond, Mean: 10 * time.Millisecond, P99: 10 * time.Millisecond, Max: 10 * time.Millisecond},
	}
	var ser sampler.Series
	for i, l := range loops {
		n := uint64(20 * i)
		ser.Samples = append(ser.Samples, sampler.Sample{
			At: t0.Add(time.Duration(i) * time.Second),
			Pauses: &sampler.Pauses{
				EventLoop: &l,
				GC: &sampler.Histogram{Count: n, Sum: time.Duration(n) * 2 * time.Millisecond, Buckets: []sampler.Bucket{
					{UpperBound: time.Millisecond, Count: 0}, {UpperBound: 10 * time.Millisecond, Count: n}, {UpperBound: math.MaxInt64, Count: n},
				}},
			},
		})
	}
	p := cost.PausesCost(ser, t0.Add(500*time.Millisecond), t0.Add(2500*time.Millisecond))
	if p == nil || p.GC == nil || p.EventLoop == nil {
		t.Fatalf("pauses %+v; want the collector's and the event loop's", p)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-6 }
	if !near(p.GC.MsPerSecond, 40) || !near(p.GC.PerSecond, 20) || !near(p.GC.P99Ms, 1+9*0.99) {
		t.Errorf("GC %+v; want 40 ms a second, 20 pauses, p99 %v ms", *p.GC, 1+9*0.99)
	}
	// The scrape at 0 s covers the second before the window; the three
	// after it held the loop 4.3/14.3, 0 and 0 of their seconds.
	if !near(p.EventLoop.MaxMs, 300) || !near(p.EventLoop.P99Ms, 0.5) || !near(p.EventLoop.MsPerSecond, 1000*4.3/14.3/3) {
		t.Errorf("event loop %+v; want 300 ms longest, 0.5 ms p99, %v ms a second", *p.EventLoop, 1000*4.3/14.3/3)
	}
	if p := cost.PausesCost(sampler.Series{Samples: ser.Samples[:1]}, t0, t0.Add(time.Second)); p != nil {
		t.Errorf("one scrape: %+v; want none", p)
	}
}
