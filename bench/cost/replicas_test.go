package cost_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// scrapes is a replica's series scraped once a second from t0 for n
// seconds, at cpu cores, rss MB and acquires a second each waiting 0.1 ms,
// in a pool of size connections (no pool when size is 0).
func scrapes(t0 time.Time, n int, cpu float64, rss uint64, acquires, size int) sampler.Series {
	var ser sampler.Series
	for i := range n {
		s := sampler.Sample{
			At:        t0.Add(time.Duration(i) * time.Second),
			CPU:       time.Duration(float64(i) * cpu * float64(time.Second)),
			CPUBehind: 30 * time.Millisecond,
			RSSBytes:  (rss + uint64(i)) << 20,
		}
		if size > 0 {
			s.Pool = &sampler.Pool{Acquires: uint64(i * acquires), AcquireWait: time.Duration(i*acquires) * 100 * time.Microsecond, MaxConns: size}
		}
		ser.Samples = append(ser.Samples, s)
	}
	return ser
}

// An app's replicas add up: each replica's cost over the window from its
// own scrapes (2 s of a window inside 3 s of scrapes), their sum the app's.
func TestReplicasCost(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	from, to := t0.Add(500*time.Millisecond), t0.Add(2500*time.Millisecond)
	urls := []string{"http://10.0.0.5:9100/metrics", "http://10.0.0.6:9100/metrics"}
	a, b := scrapes(t0, 4, 0.1, 50, 100, 20), scrapes(t0.Add(300*time.Millisecond), 4, 0.3, 70, 300, 20)
	// b's scrapes around the window span 0.3 s to 3.3 s, 3 s: scaled to 2 s.
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-6 }

	sum, unread := cost.ReplicasCost(urls, []sampler.Series{a, b}, from, to, 180, 200)
	ca, pa := cost.MetricsCost(a, from, to, 180, 200)
	cb, pb := cost.MetricsCost(b, from, to, 180, 200)
	if len(unread) != 0 || !sum.Available || sum.Source != results.SourceMetrics || sum.Replicas != 2 || sum.PID != 0 {
		t.Fatalf("cost %+v, unread %v; want available from metrics, 2 replicas", sum, unread)
	}
	for _, f := range []struct {
		name          string
		got, one, two float64
	}{
		{"CPU mean", sum.CPUMean, ca.CPUMean, cb.CPUMean},
		{"CPU max", sum.CPUMax, ca.CPUMax, cb.CPUMax},
		{"CPU seconds", sum.CPUSeconds, ca.CPUSeconds, cb.CPUSeconds},
		{"CPU ms per request", sum.CPUMsPerRequest, ca.CPUMsPerRequest, cb.CPUMsPerRequest},
		{"resolution", sum.CPUResolutionMsPerRequest, ca.CPUResolutionMsPerRequest, cb.CPUResolutionMsPerRequest},
		{"RSS mean", sum.RSSMeanMB, ca.RSSMeanMB, cb.RSSMeanMB},
		{"RSS max", sum.RSSMaxMB, ca.RSSMaxMB, cb.RSSMaxMB},
		{"RSS start", sum.RSSStartMB, ca.RSSStartMB, cb.RSSStartMB},
		{"RSS end", sum.RSSEndMB, ca.RSSEndMB, cb.RSSEndMB},
	} {
		if !near(f.got, f.one+f.two) || f.one <= 0 || f.two <= 0 {
			t.Errorf("%s %v, want %v + %v", f.name, f.got, f.one, f.two)
		}
	}
	// 0.1 + 0.3 cores over 2 s: 0.8 CPU seconds for 180 requests.
	if !near(sum.CPUMean, 0.4) || !near(sum.CPUSeconds, 0.8) || !near(sum.CPUMsPerRequest, 800.0/180) {
		t.Errorf("CPU mean %v, seconds %v, ms per request %v; want 0.4, 0.8, %v", sum.CPUMean, sum.CPUSeconds, sum.CPUMsPerRequest, 800.0/180)
	}
	p := sum.Pool
	if p == nil || p.Acquires != pa.Acquires+pb.Acquires || p.Acquires != 800 || !near(p.AcquireWaitSeconds, 0.08) ||
		!near(p.WaitMsPerRequest, 0.4) || p.MaxConns != 40 {
		t.Errorf("pool %+v, want 800 acquisitions, 0.08 s of wait, 0.4 ms per request, 40 connections", p)
	}

	for _, tt := range []struct {
		name   string
		b      sampler.Series
		unread []string
	}{
		{"a replica that went down during the window", sampler.Series{Samples: b.Samples[:2], Misses: []time.Time{t0.Add(2300 * time.Millisecond)}}, urls[1:]},
		{"a replica that came up late", sampler.Series{Samples: b.Samples[1:], Misses: []time.Time{b.Samples[0].At}}, urls[1:]},
		{"a replica never read", sampler.Series{Misses: []time.Time{t0}}, urls[1:]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sum, unread := cost.ReplicasCost(urls, []sampler.Series{a, tt.b}, from, to, 180, 200)
			if sum.Available || sum.CPUMean != 0 || sum.Pool != nil || sum.Replicas != 2 || !slices.Equal(unread, tt.unread) {
				t.Errorf("cost %+v, unread %v; want n/a for 2 replicas, unread %v", sum, unread, tt.unread)
			}
		})
	}

	t.Run("a slow scrape inside the window", func(t *testing.T) {
		slow := b
		slow.Misses = []time.Time{t0.Add(1500 * time.Millisecond)}
		slow.Samples = slices.Delete(slices.Clone(b.Samples), 1, 2)
		sum, unread := cost.ReplicasCost(urls, []sampler.Series{a, slow}, from, to, 180, 200)
		if !sum.Available || len(unread) != 0 || !near(sum.CPUSeconds, 0.8) {
			t.Errorf("cost %+v, unread %v; want the same CPU seconds from the scrapes around the window", sum, unread)
		}
	})
	t.Run("a replica without a pool", func(t *testing.T) {
		sum, _ := cost.ReplicasCost(urls, []sampler.Series{a, scrapes(t0, 4, 0.3, 70, 0, 0)}, from, to, 180, 200)
		if !sum.Available || sum.Pool != nil {
			t.Errorf("cost %+v, pool %+v; want CPU and memory but no pool", sum, sum.Pool)
		}
	})
}
