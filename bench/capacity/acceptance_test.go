package capacity_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// tokenServer serves at most k requests per second whatever the CPU: each
// request waits for its token, the first free slot 1/k after the last
// one's and no earlier than the request was due. Below k a request hardly
// waits; above it the queue, and with it the latency, grows for as long
// as the load lasts. Its clock is the load's schedule (the dueHeader), not
// when a request arrived: when the loaded test machine stalls the test
// process, the requests it then sends late in a burst each find their
// slot passed and go at once, as they would from a server with CPU to
// spare, rather than queue behind slots the stall let go by unused.
func tokenServer(t *testing.T, k float64) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	var last time.Time
	interval := time.Duration(float64(time.Second) / k)
	take := func(due time.Time) time.Time {
		mu.Lock()
		defer mu.Unlock()
		last = last.Add(interval)
		if due.After(last) {
			last = due
		}
		return last
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		due, err := strconv.ParseInt(r.Header.Get(dueHeader), 10, 64)
		if err != nil {
			http.Error(w, "no "+dueHeader, http.StatusBadRequest)
			return
		}
		wait := time.NewTimer(time.Until(take(time.Unix(0, due))))
		defer wait.Stop()
		select {
		case <-wait.C:
			io.WriteString(w, "served")
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The tests' SLO is looser than the issue's, for a loaded machine: with
// a load average of 10 to 12 on 2 cores, the test process's threads stall
// for long enough to give p99s of up to 180 ms at half the stub's
// capacity, and an answer read late at the end of a 3 s window costs the
// throughput a percent or two. Neither must pass for the server's limit,
// nor the load generator's.
const (
	testSLOP99          = 300 * time.Millisecond
	testThroughputShare = 0.96
)

// searchConfig is the tests' SLO and an app on one core, ramping by 2
// from start.
func searchConfig(start, precision float64) capacity.Config {
	return capacity.Config{
		SLO:   results.SLO{P99: testSLOP99, MinSuccessRatio: results.CapacityMinSuccessRatio, MinThroughputShare: testThroughputShare},
		Start: start, Growth: 2, Max: 4000,
		Precision: precision,
		Cores:     runtime.NumCPU(), AppCores: 1,
	}
}

// The search finds the rate of a server whose capacity is known exactly,
// through real HTTP and real constant-rate attacks, to the 5%.
// Above k the server cannot keep up: a probe's throughput stays under k,
// so under 96% of any rate over k/0.96 = 1.042·k, and its queue grows.
func TestSearchFindsAKnownCapacity(t *testing.T) {
	const k = 100
	srv := tokenServer(t, k)
	cfg := searchConfig(30, 0.05)
	out, err := capacity.Search(context.Background(), cfg, attackProbe(t, srv.URL, 0))
	logOutcome(t, out)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != results.CapacityFound || out.Upper <= out.Rate {
		t.Fatalf("status %q, bracket [%v, %v]; want found, upper above rate", out.Status, out.Rate, out.Upper)
	}
	if lo, hi := k/(1+cfg.Precision), k*(1+cfg.Precision); out.Rate < lo || out.Rate > hi {
		t.Errorf("capacity %.1f req/s, want %.1f to %.1f (%d within %v)", out.Rate, lo, hi, k, cfg.Precision)
	}
}

// A server that spends a fixed CPU time on each request, on one core,
// stops at that core whatever else the machine runs: either it gets its
// core and uses it, or the machine is busy and it is still the busiest of
// app and runner.
func TestSearchStopsAtTheAppsCPU(t *testing.T) {
	url, pid := startHelper(t)
	out, err := capacity.Search(context.Background(), searchConfig(25, 0.5), attackProbe(t, url, pid))
	logOutcome(t, out)
	if err != nil {
		t.Fatal(err)
	}
	if out.Upper == 0 || out.StopReason != results.StopAppCPU {
		t.Errorf("status %q, upper %v, stop %q (%s); want stopped by %q", out.Status, out.Upper, out.StopReason, out.StopDetail, results.StopAppCPU)
	}
}

// logOutcome shows the probes, so a failure on a busy machine says why.
func logOutcome(t *testing.T, out capacity.Outcome) {
	t.Helper()
	for _, p := range out.Probes {
		t.Logf("%7.1f req/s: achieved %.1f, throughput %.1f, p50 %.1f ms, p99 %.1f ms, app %.2f, runner %.2f, machine %.2f cores; met %v %s",
			p.Rate, p.AchievedRate, p.Throughput, p.P50, p.P99, p.AppCPU, p.RunnerCPU, p.MachineCPU, p.Met, p.Why)
	}
	t.Logf("%s: %.1f req/s, upper %.1f; %s: %s", out.Status, out.Rate, out.Upper, out.StopReason, out.StopDetail)
}
