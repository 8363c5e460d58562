package cost_test

import (
	"math"
	"testing"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// The broker's cost is its tree's CPU over the window's samples, per
// request of the window, and its queue's depth over the readings in the
// window only: a backlog before the window or after it is another
// window's.
func TestBrokerCost(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var broker, queue sampler.Series
	depths := []int{50, 0, 4, 8, 0, 90}
	for i := range 6 {
		at := t0.Add(time.Duration(i) * time.Second)
		broker.Samples = append(broker.Samples, sampler.Sample{At: at, CPU: time.Duration(i) * 50 * time.Millisecond, RSSBytes: uint64(100+i) << 20})
		queue.Samples = append(queue.Samples, sampler.Sample{At: at, Queue: &sampler.Queue{Depth: depths[i]}})
	}
	from, to := t0.Add(time.Second), t0.Add(4*time.Second)
	c := cost.BrokerCost(broker, queue, from, to, 300)

	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	// 0.15 s of CPU over 3 s, for 300 requests.
	if !c.CPUAvailable || c.PID != 42 || !near(c.CPUMean, 0.05) || !near(c.CPUSeconds, 0.15) || !near(c.CPUMsPerRequest, 0.5) {
		t.Errorf("CPU %+v, want a mean of 0.05 cores, 0.15 s, 0.5 ms per request", c)
	}
	if !near(c.RSSMaxMB, 104*(1<<20)/results.BytesPerMB) {
		t.Errorf("RSS max %v MB, want the window's largest", c.RSSMaxMB)
	}
	// The readings at 1, 2, 3 and 4 s: 0, 4, 8, 0.
	if !c.QueueAvailable || !near(c.QueueDepthMean, 3) || c.QueueDepthMax != 8 {
		t.Errorf("queue depth mean %v, max %d, available %v; want 3, 8, true", c.QueueDepthMean, c.QueueDepthMax, c.QueueAvailable)
	}

	one := sampler.Series{Samples: queue.Samples[2:3]}
	if c := cost.BrokerCost(sampler.Series{}, one, from, to, 300); c.CPUAvailable || c.QueueAvailable || c.QueueDepthMax != 0 {
		t.Errorf("no broker samples and one reading: %+v, want neither figure", c)
	}
}
