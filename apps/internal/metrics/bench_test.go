package metrics_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/metrics"
	"crudbench/db"
	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// BenchmarkScrape is the cost of one Prometheus scrape of an app's metrics:
// the real collectors over a real pool, with a histogram holding as many
// series as an app has routes, answered gzipped as Prometheus asks. The
// registry gathers its collectors in goroutines of their own, so beside
// ns/op (wall time) it reports cpu-ns/op, the process's user and system
// time per scrape: at one scrape a second, cpu-ns/op / 1e7 is the share of
// a core in percent.
func BenchmarkScrape(b *testing.B) {
	store := dbtest.Store(b, dbtest.Empty(b), db.Options{})
	if err := store.Ping(context.Background()); err != nil {
		b.Fatal(err)
	}
	m := metrics.New(store.PoolStats)
	fillRoutes(b, m, 20)
	h := m.Handler()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// fillRoutes records a request on each of n routes in two status classes,
// so that the histogram has the series a real app's has.
func fillRoutes(b *testing.B, m *metrics.Metrics, n int) {
	b.Helper()
	r := chi.NewRouter()
	r.Use(m.Requests)
	for i := range n {
		r.Get("/r"+strconv.Itoa(i), func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Has("fail") {
				w.WriteHeader(http.StatusNotFound)
			}
			io.WriteString(w, "ok")
		})
	}
	for i := range n {
		for _, q := range []string{"", "?fail"} {
			r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/r"+strconv.Itoa(i)+q, nil))
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRequests is the histogram's cost per request: a chi route with
// and without the middleware in one run, so that the difference of the two
// is what it adds (compare it with an app's CPU per request, about half a
// millisecond for the bench's reads).
func BenchmarkRequests(b *testing.B) {
	m := metrics.New(func() db.PoolStats { return db.PoolStats{} })
	ok := func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }
	bare := chi.NewRouter()
	bare.Get("/persons/{id}", ok)
	measured := chi.NewRouter()
	measured.Use(m.Requests)
	measured.Get("/persons/{id}", ok)
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"without", bare}, {"with", measured}} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/persons/1", nil)
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				bc.h.ServeHTTP(w, req)
			}
		})
	}
}
