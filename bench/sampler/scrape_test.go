package sampler_test

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"crudbench/bench/sampler"
)

// TestScraperAgreesWithProc reads one process both ways over the same
// window: its /proc files and its Prometheus process collector once a
// second. Both are cumulative counters of the same process, so however
// busy the machine (and however unevenly the helper gets its half core),
// they must agree. /proc is read every 10 ms so that its samples around
// the scrapes cover the same span to within that.
func TestScraperAgreesWithProc(t *testing.T) {
	h := startHelper(t, modeMetrics)
	url := "http://" + h.line(t) + "/metrics"
	procs := sampler.New(10*time.Millisecond, sampler.Target{Name: "proc", PID: h.pid()})
	scraper := sampler.NewScraper("metrics", url, 0)
	begin := time.Now()
	procs.Start()
	scraper.Start()
	// Several seconds of the helper's CPU time, however long a busy
	// machine makes that take.
	cpu0 := h.cpu(t)
	for h.cpu(t)-cpu0 < 2*time.Second {
		time.Sleep(100 * time.Millisecond)
	}
	fromMetrics := scraper.Stop()["metrics"]
	fromProc := procs.Stop()["proc"]
	took := time.Since(begin)

	// A scrape that timed out on a busy machine is a miss and loses
	// nothing: the counters are cumulative, and the next one reads them.
	if len(fromMetrics.Samples) < 4 {
		t.Fatalf("scraper: %d samples, misses at %v; want 4 or more", len(fromMetrics.Samples), fromMetrics.Misses)
	}
	if len(fromMetrics.Misses) > 0 {
		t.Logf("scraper: misses at %v", fromMetrics.Misses)
	}
	// The scrapes' span, and the /proc samples around it: the same
	// stretch of the process's life, give or take a 10 ms sample.
	first, last := fromMetrics.Samples[0].At, fromMetrics.Samples[len(fromMetrics.Samples)-1].At
	m := fromMetrics.Window(first, last)
	p := fromProc.Window(fromProc.Around(first, last))
	t.Logf("metrics: %+v", m)
	t.Logf("/proc:   %+v", p)
	// Two samples at least to take a difference of (Around gives them);
	// a busy machine drops 10 ms ticks, but never adds any.
	if most := int(took/(10*time.Millisecond)) + 2; p.Missing || p.Samples < 2 || len(fromProc.Samples) > most {
		t.Fatalf("/proc: Missing, Samples = %v, %d of %d; want false, 2 or more of %d at most", p.Missing, p.Samples, len(fromProc.Samples), most)
	}
	if d := math.Abs(m.CPUMean - p.CPUMean); d > 0.03 {
		t.Errorf("CPU mean from metrics %.3f, from /proc %.3f: %.1f points apart, want within 3", m.CPUMean, p.CPUMean, 100*d)
	}
	if m.CPUMean < 0.1 {
		t.Errorf("CPU mean from metrics %.3f for a process burning half a core, want well above zero", m.CPUMean)
	}
	if r := float64(m.RSSMeanBytes) / float64(p.RSSMeanBytes); math.Abs(r-1) > 0.05 {
		t.Errorf("RSS mean from metrics %d MiB, from /proc %d MiB: ratio %.3f, want within 5%%", m.RSSMeanBytes/mib, p.RSSMeanBytes/mib, r)
	}
	if m.RSSMeanBytes < burnMiB*mib {
		t.Errorf("RSS mean from metrics %d MiB, want at least the helper's %d MiB", m.RSSMeanBytes/mib, burnMiB)
	}
	tick := time.Second / sampler.ClockTicksPerSecond
	if m.CPUResolution < 2*tick {
		t.Errorf("CPUResolution from metrics %v, want at least the two 10 ms ticks of utime and stime", m.CPUResolution)
	}
}

// poolServer serves metrics whose pool counters grow by a known step at
// every scrape: the nth scrape says 10n acquisitions, n/2 s waited.
func poolServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		fmt.Fprintf(w, `# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total %g
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 5.24288e+07
# TYPE pgxpool_acquire_count_total counter
pgxpool_acquire_count_total %d
# TYPE pgxpool_acquire_duration_seconds_total counter
pgxpool_acquire_duration_seconds_total %g
# TYPE pgxpool_max_conns gauge
pgxpool_max_conns 8
`, 0.25*float64(k), 10*k, 0.5*float64(k))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestScraperPool(t *testing.T) {
	t.Parallel()
	srv, scrapes := poolServer(t)
	// Asked for 10 ms, it scrapes once a second all the same.
	s := sampler.NewScraper("app", srv.URL, 10*time.Millisecond)
	s.Start()
	ser := s.Stop()["app"]
	if got, want := int64(len(ser.Samples)), scrapes.Load(); got != want || got < 2 || len(ser.Misses) > 0 {
		t.Fatalf("%d samples, %d misses of %d scrapes; want two or more, all of them samples", got, len(ser.Misses), want)
	}
	for i := 1; i < len(ser.Samples); i++ {
		// The scrape times are halfway through each request, and the
		// first request also connects, which a busy machine can make
		// slow: bound the gap by half the interval, which a scraper that
		// honoured 10 ms would miss a hundredfold.
		if d := ser.Samples[i].At.Sub(ser.Samples[i-1].At); d < sampler.MinScrapeInterval/2 {
			t.Errorf("samples %d and %d %v apart, want about %v or more", i-1, i, d, sampler.MinScrapeInterval)
		}
	}
	steps := len(ser.Samples) - 1
	pool, ok := ser.PoolChange(time.Time{}, time.Time{})
	want := sampler.Pool{Acquires: uint64(10 * steps), AcquireWait: time.Duration(steps) * 500 * time.Millisecond, MaxConns: 8}
	if !ok || pool != want {
		t.Errorf("PoolChange = %+v, %v; want %+v, true", pool, ok, want)
	}
	st := ser.Window(time.Time{}, time.Time{})
	if math.Abs(st.CPUSeconds-0.25*float64(steps)) > 1e-6 || st.RSSMeanBytes != 50*mib {
		t.Errorf("CPUSeconds, RSSMeanBytes = %g, %d; want %g, %d", st.CPUSeconds, st.RSSMeanBytes, 0.25*float64(steps), 50*mib)
	}
	if _, ok := (sampler.Series{Samples: ser.Samples[:1]}).PoolChange(time.Time{}, time.Time{}); ok {
		t.Errorf("PoolChange of one sample reported a change")
	}
}

// A scrape that fails is a miss, never an error, and a hung app does not
// hold Stop for more than its bounded waits.
func TestScraperMisses(t *testing.T) {
	t.Parallel()
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close()
	hang := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(hang); hung.Close() })
	for _, tc := range []struct {
		name string
		url  string
	}{
		{"refused", refused.URL},
		{"not found", serve(t, http.StatusNotFound, "")},
		{"no process metrics", serve(t, http.StatusOK, "# TYPE up gauge\nup 1\n")},
		{"not the text format", serve(t, http.StatusOK, "{\"cpu\": 1}\n")},
		{"hung", hung.URL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := sampler.NewScraper("app", tc.url, 0)
			start := time.Now()
			s.Start()
			ser := s.Stop()["app"]
			took := time.Since(start)
			if len(ser.Samples) != 0 || len(ser.Misses) < 2 {
				t.Errorf("%d samples, %d misses; want none and two or more", len(ser.Samples), len(ser.Misses))
			}
			if !ser.Window(time.Time{}, time.Time{}).Missing {
				t.Errorf("Window: Missing = false, want true")
			}
			// Two scrapes of at most an interval each, and the wait for
			// the tick between them; a busy machine adds to that (10.01 s
			// with two CPU hogs beside the suite), but not an unbounded
			// wait, which is what this bounds.
			if limit := 20 * sampler.MinScrapeInterval; took > limit {
				t.Errorf("Stop returned after %v, want well within %v", took, limit)
			}
		})
	}
}

// serve starts a server that answers every request with status and body.
func serve(t *testing.T, status int, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// BenchmarkScrape is the runner's side of one scrape: the HTTP request and
// the parsing of an exposition like an app's (process and Go collectors,
// a request-duration histogram over a dozen routes, the pool). It is served
// pre-rendered, so the app's own gathering is not counted. At one scrape a
// second, ns/op is the share of a core per scraped app ×1e-9.
func BenchmarkScrape(b *testing.B) {
	body := appExposition(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		w.Write(body)
	}))
	defer srv.Close()
	s := sampler.NewScraper("app", srv.URL, 0)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if !sampler.ScrapeOnce(s) {
			b.Fatal("the scrape gave no sample")
		}
	}
}

// appExposition renders metrics shaped like an app's in the text format.
func appExposition(b *testing.B) []byte {
	b.Helper()
	reg := prometheus.NewRegistry()
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "http_request_duration_seconds", Buckets: prometheus.DefBuckets,
	}, []string{"route", "status"})
	for i := range 12 {
		for _, status := range []string{"2xx", "4xx", "5xx"} {
			duration.WithLabelValues(fmt.Sprintf("/api/route%d/{id}", i), status).Observe(0.002)
		}
	}
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector(), duration,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "pgxpool_acquire_count_total"}, func() float64 { return 1200 }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "pgxpool_acquire_duration_seconds_total"}, func() float64 { return 0.3 }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "pgxpool_max_conns"}, func() float64 { return 20 }),
	)
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return rec.Body.Bytes()
}
