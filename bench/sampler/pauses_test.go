package sampler_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"crudbench/bench/sampler"
)

// nodeExposition is what prom-client's default metrics write of a Node
// app's pauses (two kinds of collection, the event-loop delays since the
// last scrape) beside the process figures every app has.
const nodeExposition = `# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 1.5
# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 50000000
# HELP nodejs_eventloop_lag_seconds Lag of event loop in seconds.
# TYPE nodejs_eventloop_lag_seconds gauge
nodejs_eventloop_lag_seconds 0.002
# HELP nodejs_eventloop_lag_min_seconds The minimum recorded event loop delay.
# TYPE nodejs_eventloop_lag_min_seconds gauge
nodejs_eventloop_lag_min_seconds 0.010
# HELP nodejs_eventloop_lag_mean_seconds The mean of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_mean_seconds gauge
nodejs_eventloop_lag_mean_seconds 0.0143
# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_p99_seconds gauge
nodejs_eventloop_lag_p99_seconds 0.0105
# HELP nodejs_eventloop_lag_max_seconds The maximum recorded event loop delay.
# TYPE nodejs_eventloop_lag_max_seconds gauge
nodejs_eventloop_lag_max_seconds 0.304
# HELP nodejs_gc_duration_seconds Garbage collection duration by kind, one of major, minor, incremental or weakcb.
# TYPE nodejs_gc_duration_seconds histogram
nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor"} 10
nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor"} 18
nodejs_gc_duration_seconds_bucket{le="+Inf",kind="minor"} 20
nodejs_gc_duration_seconds_sum{kind="minor"} 0.2
nodejs_gc_duration_seconds_count{kind="minor"} 20
nodejs_gc_duration_seconds_bucket{le="0.001",kind="major"} 0
nodejs_gc_duration_seconds_bucket{le="0.01",kind="major"} 0
nodejs_gc_duration_seconds_bucket{le="+Inf",kind="major"} 1
nodejs_gc_duration_seconds_sum{kind="major"} 0.3
nodejs_gc_duration_seconds_count{kind="major"} 1
`

// TestScraperPauses reads the pauses of both runtimes as their client
// libraries write them: Node's from prom-client's text, Go's from
// client_golang's Go collector with the runtime's pause histogram, as the
// apps register it.
func TestScraperPauses(t *testing.T) {
	t.Run("node", func(t *testing.T) {
		s := scrapeOnce(t, serve(t, http.StatusOK, nodeExposition))
		p := s.Pauses
		if p == nil || p.GC == nil || p.EventLoop == nil {
			t.Fatalf("pauses %+v; want the collector's and the event loop's", p)
		}
		want := sampler.LoopDelay{Min: 10 * time.Millisecond, Mean: 14300 * time.Microsecond, P99: 10500 * time.Microsecond, Max: 304 * time.Millisecond}
		if *p.EventLoop != want {
			t.Errorf("event loop %+v; want %+v", *p.EventLoop, want)
		}
		if p.GC.Count != 21 || p.GC.Sum != 500*time.Millisecond {
			t.Errorf("GC count, sum = %d, %v; want 21, 500ms (both kinds)", p.GC.Count, p.GC.Sum)
		}
		if got := p.GC.Buckets[1].Count; got != 18 {
			t.Errorf("GC at or under 10 ms: %d; want 18", got)
		}
		// Rank 0.5 × 21 = 10.5 falls in (1 ms, 10 ms], 0.5 of its 8.
		if got, want := p.GC.Quantile(0.5), 1*time.Millisecond+9*time.Millisecond/16; absDiff(got, want) > time.Microsecond {
			t.Errorf("GC median %v; want %v", got, want)
		}
		// Rank 20.79 is in the +Inf bucket: the highest finite bound.
		if got := p.GC.Quantile(0.99); got != 10*time.Millisecond {
			t.Errorf("GC p99 %v; want 10ms", got)
		}
	})
	t.Run("go", func(t *testing.T) {
		reg := prometheus.NewRegistry()
		reg.MustRegister(
			collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
			collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(
				collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/sched/pauses/total/gc:seconds$`)})),
		)
		srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		t.Cleanup(srv.Close)
		before := scrapeOnce(t, srv.URL)
		for range 3 {
			runtime.GC()
		}
		after := scrapeOnce(t, srv.URL)
		if before.Pauses == nil || after.Pauses == nil || after.Pauses.GC == nil || after.Pauses.EventLoop != nil {
			t.Fatalf("pauses %+v, %+v; want the collector's and no event loop", before.Pauses, after.Pauses)
		}
		ser := sampler.Series{Samples: []sampler.Sample{before, after}}
		c, ok := ser.PausesBetween(time.Time{}, time.Time{})
		// Each cycle stops the world twice.
		if !ok || c.GC == nil || c.GC.Count < 6 || c.GC.Sum <= 0 {
			t.Fatalf("change %+v, %v; want 6 or more pauses and their time", c.GC, ok)
		}
		if p99 := c.GC.Quantile(0.99); p99 <= 0 || p99 > c.GC.Buckets[len(c.GC.Buckets)-2].UpperBound {
			t.Errorf("p99 %v; want within the finite buckets", p99)
		}
	})
}

// TestPausesBetween takes the collector's growth from the first to the
// last sample with pauses in the window, and the event-loop delays of
// every scrape after the first, each over the second before it.
func TestPausesBetween(t *testing.T) {
	t0 := time.Now()
	gc := func(n uint64) *sampler.Histogram {
		return &sampler.Histogram{Count: n, Sum: time.Duration(n) * time.Millisecond, Buckets: []sampler.Bucket{
			{UpperBound: 2 * time.Millisecond, Count: n}, {UpperBound: 1<<63 - 1, Count: n},
		}}
	}
	loop := func(max time.Duration) *sampler.LoopDelay {
		return &sampler.LoopDelay{Min: 10 * time.Millisecond, Mean: 11 * time.Millisecond, P99: 12 * time.Millisecond, Max: max}
	}
	ser := sampler.Series{Samples: []sampler.Sample{
		{At: t0, Pauses: &sampler.Pauses{GC: gc(5), EventLoop: loop(900 * time.Millisecond)}},
		{At: t0.Add(time.Second)},
		{At: t0.Add(2 * time.Second), Pauses: &sampler.Pauses{GC: gc(15), EventLoop: loop(20 * time.Millisecond)}},
		{At: t0.Add(3 * time.Second), Pauses: &sampler.Pauses{GC: gc(25), EventLoop: loop(30 * time.Millisecond)}},
	}}
	c, ok := ser.PausesBetween(t0, t0.Add(3*time.Second))
	if !ok || c.Span != 3*time.Second || c.GC.Count != 20 || c.GC.Sum != 20*time.Millisecond {
		t.Fatalf("change %+v (GC %+v), %v; want 20 pauses of 20ms in all over 3s", c, c.GC, ok)
	}
	// The first scrape's delays are of the second before the window.
	if len(c.EventLoop) != 2 || c.EventLoop[0].Max != 20*time.Millisecond || c.EventLoop[1].Max != 30*time.Millisecond {
		t.Errorf("event loop %+v; want the last two scrapes'", c.EventLoop)
	}
	restarted := ser
	restarted.Samples = append([]sampler.Sample(nil), ser.Samples...)
	restarted.Samples[3].Pauses = &sampler.Pauses{GC: gc(1)}
	if c, _ := restarted.PausesBetween(t0, t0.Add(3*time.Second)); c.GC != nil {
		t.Errorf("GC across a restart %+v; want none", c.GC)
	}
}

// scrapeOnce reads the metrics at url once, as a Scraper's loop does.
func scrapeOnce(t *testing.T, url string) sampler.Sample {
	t.Helper()
	if !strings.HasSuffix(url, "/metrics") {
		url += "/metrics"
	}
	s := sampler.NewScraper("app", url, 0)
	if !sampler.ScrapeOnce(s) {
		t.Fatalf("scrape of %s: a miss", url)
	}
	samples := s.Stop()["app"].Samples
	return samples[len(samples)-1]
}

func absDiff(a, b time.Duration) time.Duration {
	if a > b {
		return a - b
	}
	return b - a
}
