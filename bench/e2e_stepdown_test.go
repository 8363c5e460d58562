package main_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"crudbench/bench/report"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// The step-down of TestCapacityStepDown: probes at 10 req/s only (the
// search's start is its cap), each 1 s of warm-up and 1 s measured, 20
// requests; confirmations of 1 s warm-up and 2 s measured, 30 requests at
// 10 req/s and 27 at 9. The app behind stepDownProxy answers the 28th
// request of a session and those after it stepDownDelay late, twice the
// SLO: a session of 27 requests never sees the delay, one of 30 does in
// its measured window.
const (
	stepDownRate  = 10
	stepDownAfter = 27
	stepDownSLO   = 2 * time.Second
	stepDownDelay = 2 * stepDownSLO
)

// TestCapacityStepDown benches a real app whose probes meet the SLO and
// whose first full-length confirmation misses it: the runner confirms 90%
// of the rate next, which holds, and the capacity is that rate — with the
// probes' rate and the missed confirmation on record, each confirmation
// in its own files, and the report saying so.
func TestCapacityStepDown(t *testing.T) {
	row, _ := stack.FindBuiltin("rest")
	dbURL, procs := startApps(t, []stack.App{row})
	proxy := stepDownProxy(t, procs["rest"].URL)

	run, dir, console := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", "rest="+proxy.URL, "-capacity", "-scenarios", "read-one",
		"-capacity-start", "10", "-capacity-max", "10", "-slo-p99", stepDownSLO.String(),
		"-probe-warmup", "1s", "-probe-duration", "1s",
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s")

	if len(run.Capacities) != 1 {
		t.Fatalf("%d capacities, want 1", len(run.Capacities))
	}
	c := run.Capacities[0]
	for i, p := range c.Probes {
		if !p.Met {
			t.Errorf("probe %d at %v req/s missed (%s); the proxy delays only a session's %dth request on", i+1, p.Rate, p.Why, stepDownAfter+1)
		}
	}
	const stepped = stepDownRate * 0.9
	if c.Status != results.CapacityCapped || c.Found != stepDownRate || c.Rate != stepped || !c.Held {
		t.Fatalf("status %s, found %v, rate %v, held %v; want the cap %v found, %v held", c.Status, c.Found, c.Rate, c.Held, stepDownRate, stepped)
	}
	conf := c.Confirmation
	if conf == nil || conf.TargetRate != stepped || conf.Verdict != results.VerdictOK || conf.Requests != 18 {
		t.Fatalf("confirmation %+v, want 18 requests at %v req/s that held", conf, stepped)
	}
	if len(c.Missed) != 1 {
		t.Fatalf("%d missed confirmations, want 1", len(c.Missed))
	}
	missed := c.Missed[0]
	if missed.TargetRate != stepDownRate || missed.Verdict == results.VerdictOK || !missed.Measured() || missed.Latency.Max < stepDownDelay.Seconds()*1000 {
		t.Errorf("missed confirmation: %v req/s, verdict %s, max %v ms; want a measured miss at %v req/s with the delay in it",
			missed.TargetRate, missed.Verdict, missed.Latency.Max, stepDownRate)
	}
	// Each confirmation has its own files: the first the capacity run's
	// name, the second its try.
	for _, f := range []struct{ file, want string }{
		{missed.RawFile, "raw/capacity-read-one-rest.bin"},
		{conf.RawFile, "raw/capacity-read-one-rest-try2.bin"},
	} {
		if fi, err := os.Stat(filepath.Join(dir, f.file)); f.file != f.want || err != nil || fi.Size() == 0 {
			t.Errorf("raw file %q (%v), want %q with the run's results", f.file, err, f.want)
		}
	}
	if want := "the last confirmation missed: confirming 9.0 req/s, 90% of its rate"; !strings.Contains(console, want) {
		t.Errorf("the console does not say %q", want)
	}
	md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"held the SLO; missed it at 10 req/s (", "another confirms 90% of that rate, up to 3 runs"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md does not say %q", want)
		}
	}
}

// stepDownProxy forwards to the app at target, and delays the reads of a
// session (its bearer token) from its stepDownAfter+1th on by
// stepDownDelay. Each run logs in anew, so each confirmation is a session
// of its own; the probes share one.
func stepDownProxy(t *testing.T, target string) *httptest.Server {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	forward := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	reads := map[string]int{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token := r.Header.Get("Authorization"); token != "" && r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/persons/") {
			mu.Lock()
			reads[token]++
			n := reads[token]
			mu.Unlock()
			if n > stepDownAfter {
				select {
				case <-time.After(stepDownDelay):
				case <-r.Context().Done():
					return
				}
			}
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}
