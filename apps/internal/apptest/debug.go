package apptest

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

// WantDebugOnly checks that p, started with DEBUG_ADDR, serves the pprof
// index and its metrics (WantMetrics, with route the pattern of a request
// the test had answered 2xx) on its admin address, and that its public port
// answers 404 at the same paths. That the admin server answers a CPU
// profile is serve's TestRunDebugAddr: every app runs the same one, so a
// one-second profile per app would test nothing more.
func WantDebugOnly(t *testing.T, p *Process, route string) {
	t.Helper()
	if p.DebugURL == "" {
		t.Fatal("no \"debug listening\" log line: was the app started with DEBUG_ADDR?")
	}
	if status, body := get(t, p.DebugURL+"/debug/pprof/"); status != http.StatusOK || !bytes.Contains(body, []byte("goroutine")) {
		t.Errorf("admin /debug/pprof/: %d %.200q", status, body)
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/profile?seconds=1", "/debug/pprof/cmdline", "/metrics"} {
		if status, _ := get(t, p.URL+path); status != http.StatusNotFound {
			t.Errorf("public port answers %s with %d, want 404", path, status)
		}
	}
	WantMetrics(t, p, route)
}

// get fetches url and returns the status and body.
func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}
