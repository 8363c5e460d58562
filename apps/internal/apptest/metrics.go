package apptest

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// WantMetrics scrapes p's /metrics on its admin address and checks what the
// app must export there: its process's CPU time, the Go runtime's goroutine
// count, at least one 2xx request in the duration histogram under route (a
// chi route pattern), at least one 404 under "unmatched" (WantDebugOnly
// asks the public port for /metrics first), and a pool that has opened and
// handed out connections.
//
// The app observes a request's duration once its handler has returned,
// which is after the client has its answer: a scrape right after the
// answer can come first on a loaded machine. So it scrapes until every
// figure is there, for metricsWait at most, and then judges the last.
func WantMetrics(t *testing.T, p *Process, route string) {
	t.Helper()
	names := []string{
		"process_cpu_seconds_total",
		"go_goroutines",
		`http_request_duration_seconds_count{route="` + route + `",status="2xx"}`,
		`http_request_duration_seconds_count{route="unmatched",status="4xx"}`,
		"pgxpool_total_conns",
		"pgxpool_max_conns",
		"pgxpool_acquire_count_total",
	}
	series := Scrape(t, p.DebugURL+"/metrics")
	for deadline := time.Now().Add(metricsWait); !allPositive(series, names) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		series = Scrape(t, p.DebugURL+"/metrics")
	}
	for _, name := range names {
		if v, ok := series[name]; !ok || v <= 0 {
			t.Errorf("/metrics: %s = %v (present %v), want > 0", name, v, ok)
		}
	}
	if _, ok := series["pgxpool_acquire_duration_seconds_total"]; !ok {
		t.Error("/metrics: no pgxpool_acquire_duration_seconds_total")
	}
}

// metricsWait bounds WantMetrics' wait for the figures of requests just
// answered: only an app that never records them takes it all.
const metricsWait = 10 * time.Second

// allPositive reports whether every name is in series with a value above 0.
func allPositive(series map[string]float64, names []string) bool {
	for _, name := range names {
		if series[name] <= 0 {
			return false
		}
	}
	return true
}

// WantMetricsOnly checks that p, started with DEBUG_ADDR and METRICS_ADDR,
// serves on its metrics address the same registry as on its admin address
// (the request counts, route by route, are equal and not all zero: one set
// of counters, not two) with its process and pool figures, and answers 404
// everywhere else there: no pprof, and not the app's own routes.
func WantMetricsOnly(t *testing.T, p *Process) {
	t.Helper()
	if p.MetricsURL == "" || p.DebugURL == "" {
		t.Fatal("no \"metrics listening\" or \"debug listening\" log line: was the app started with METRICS_ADDR and DEBUG_ADDR?")
	}
	admin, exposed := Scrape(t, p.DebugURL+"/metrics"), Scrape(t, p.MetricsURL+"/metrics")
	requests := 0.0
	for name, v := range admin {
		if strings.HasPrefix(name, "http_request_duration_seconds_count{") {
			requests += v
			if w, ok := exposed[name]; !ok || w != v {
				t.Errorf("metrics address: %s = %v (present %v), admin address %v", name, w, ok, v)
			}
		}
	}
	if requests == 0 {
		t.Error("admin /metrics counts no requests: nothing to compare the metrics address with")
	}
	for _, name := range []string{"process_cpu_seconds_total", "process_resident_memory_bytes", "pgxpool_total_conns"} {
		if v, ok := exposed[name]; !ok || v <= 0 {
			t.Errorf("metrics address: %s = %v (present %v), want > 0", name, v, ok)
		}
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/profile?seconds=1", "/debug/pprof/cmdline", "/", "/healthz"} {
		if status, _ := get(t, p.MetricsURL+path); status != http.StatusNotFound {
			t.Errorf("metrics address answers %s with %d, want 404", path, status)
		}
	}
}

// Scrape fetches url, Prometheus's text format, and returns each sample's
// value by its series as written (name and labels, e.g.
// `go_goroutines` or `http_request_duration_seconds_count{route="/healthz",status="2xx"}`).
func Scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	status, body := get(t, url)
	if status != http.StatusOK {
		t.Fatalf("%s: %d %.200q", url, status, body)
	}
	series := make(map[string]float64)
	for line := range strings.Lines(string(bytes.TrimSpace(body))) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if i < 0 || err != nil {
			t.Fatalf("%s: not a sample line: %q", url, line)
		}
		series[line[:i]] = v
	}
	return series
}
