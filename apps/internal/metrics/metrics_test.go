package metrics_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/apptest"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// pool stands in for a Store's PoolStats with known figures; the apps'
// binary tests read a real pool's.
func pool() db.PoolStats {
	return db.PoolStats{AcquiredConns: 2, IdleConns: 3, TotalConns: 5, MaxConns: 10, AcquireCount: 42, AcquireDuration: 1500 * time.Millisecond}
}

// newApp serves a small chi app behind m.Requests (and serve.Recover, as
// the apps have it) and m's handler; it returns both URLs.
func newApp(t *testing.T, m *metrics.Metrics) (app, scrape string) {
	t.Helper()
	r := chi.NewRouter()
	r.Use(m.Requests)
	r.Get("/persons/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "0" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "a person")
	})
	r.Route("/api", func(r chi.Router) {
		r.Post("/fail", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
		r.Get("/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	})
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(serve.Recover(logger, nil, r))
	t.Cleanup(srv.Close)
	metricsSrv := httptest.NewServer(m.Handler())
	t.Cleanup(metricsSrv.Close)
	return srv.URL, metricsSrv.URL
}

func TestRequests(t *testing.T) {
	m := metrics.New(pool)
	app, scrape := newApp(t, m)
	for _, req := range []struct{ method, path string }{
		{"GET", "/persons/1"}, {"GET", "/persons/2"}, {"GET", "/persons/0"},
		{"POST", "/api/fail"}, {"GET", "/api/panic"},
		{"GET", "/nowhere"}, {"GET", "/nowhere/else"}, {"DELETE", "/persons/1"},
	} {
		r, _ := http.NewRequest(req.method, app+req.path, nil)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	series := apptest.Scrape(t, scrape)
	for _, tt := range []struct {
		name  string
		route string
		class string
		want  float64
	}{
		{"matched", "/persons/{id}", "2xx", 2},
		{"matched route, not found", "/persons/{id}", "4xx", 1},
		{"subrouter", "/api/fail", "5xx", 1},
		{"panic", "/api/panic", "5xx", 1},
		{"no route", metrics.Unmatched, "4xx", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			key := `http_request_duration_seconds_count{route="` + tt.route + `",status="` + tt.class + `"}`
			if got := series[key]; got != tt.want {
				t.Errorf("%s = %v, want %v", key, got, tt.want)
			}
		})
	}
	var histograms int
	for key := range series {
		if strings.HasPrefix(key, "http_request_duration_seconds_count{") {
			histograms++
		}
	}
	if histograms != 5 {
		t.Errorf("%d request series, want the 5 above: the label set must stay bounded", histograms)
	}
}

// TestCollectors: the process and runtime collectors report, and the pool's
// statistics are read at the scrape.
func TestCollectors(t *testing.T) {
	m := metrics.New(pool)
	_, scrape := newApp(t, m)
	series := apptest.Scrape(t, scrape)
	for _, tt := range []struct {
		name string
		want float64 // 0: any positive value
	}{
		{"process_cpu_seconds_total", 0},
		{"process_resident_memory_bytes", 0},
		{"go_goroutines", 0},
		{"pgxpool_acquired_conns", 2},
		{"pgxpool_idle_conns", 3},
		{"pgxpool_total_conns", 5},
		{"pgxpool_max_conns", 10},
		{"pgxpool_acquire_count_total", 42},
		{"pgxpool_acquire_duration_seconds_total", 1.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := series[tt.name]
			if !ok || tt.want == 0 && got <= 0 || tt.want != 0 && got != tt.want {
				t.Errorf("%s = %v (present %v), want %v", tt.name, got, ok, tt.want)
			}
		})
	}
}
