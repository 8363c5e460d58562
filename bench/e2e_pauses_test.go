package main_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// TestNodePausesStopTheSearch runs a capacity search on express, attached
// with its metrics URL as a user attaches a running app, held
// 300 ms on every 20th request (DEBUG_PAUSE: node-base waits without
// computing, so the app has CPU to spare however loaded the machine is):
// at 20 req/s its event loop is held about a third of the time, every
// probe misses the SLO by its tail, and the runtime's own figures, scraped
// from the app's metrics, must name the event loop as what stopped it.
// The hold is six times the SLO and 30 times the 10 ms a loaded machine
// can add, so no machine's load can move the attribution.
func TestNodePausesStopTheSearch(t *testing.T) {
	requireNode(t)
	dbURL := startDatabase(t)
	url, metricsURL, pid := startExpress(t, dbURL, "DEBUG_PAUSE=300ms/20")
	run, _, console := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", "express="+url, "-metrics-url", "express="+metricsURL, "-pid", "express="+strconv.Itoa(pid),
		"-capacity", "-scenarios", "control",
		"-capacity-start", "20", "-capacity-max", "20",
		"-probe-warmup", "1s", "-probe-duration", "4s",
		"-warmup", "1s", "-duration", "4s", "-cooldown", "0s")
	if len(run.Capacities) != 1 {
		t.Fatalf("%d capacities, want 1", len(run.Capacities))
	}
	c := run.Capacities[0]
	// Other processes that fill the machine come first in the stop
	// reason (they would hold the loop as surely), and the tests of a
	// busy 2-core machine do: then the search is other-load's.
	switch {
	case c.StopReason == results.StopEventLoopLag:
		if !strings.Contains(c.StopDetail, "the event loop was held for most of the excess latency") || !strings.Contains(console, "event-loop-lag") {
			t.Errorf("stopped by %q (%s), and the console does not say so with the loop's figures", c.StopReason, c.StopDetail)
		}
	case c.StopReason == results.StopOtherLoad:
		t.Logf("other processes filled the machine: %s", c.StopDetail)
	default:
		t.Errorf("stopped by %q (%s); want %q with the loop's figures", c.StopReason, c.StopDetail, results.StopEventLoopLag)
	}
	cfg := capacity.Config{SLO: results.CapacitySLO(50 * time.Millisecond), Cores: run.Environment.CPUCount, AppCores: run.Environment.CPUCount}
	for _, p := range c.Probes {
		if p.Pauses == nil || p.Pauses.EventLoop == nil || p.Pauses.GC == nil {
			t.Errorf("probe at %v (try %d): pauses %+v; want the collector's and the event loop's", p.Rate, p.Try, p.Pauses)
			continue
		}
		t.Logf("probe at %v (try %d): p50 %.2f ms, p99 %.1f ms; %s", p.Rate, p.Try, p.P50, p.P99, capacity.PausesText(p.Pauses))
		// One hold a second of 300 ms, less the timer's interval.
		if l := p.Pauses.EventLoop; l.MaxMs < 250 || l.MsPerSecond < 100 {
			t.Errorf("probe at %v (try %d): event loop %+v; want held up to about 300 ms, about 300 ms a second", p.Rate, p.Try, *l)
		}
		// Without other processes' CPU, the figures scraped name the loop.
		p.MachineCPU = p.AppCPU + p.DBCPU + p.RunnerCPU
		if reason, detail := capacity.StopReason(cfg, p); reason != results.StopEventLoopLag {
			t.Errorf("probe at %v (try %d) on an idle machine: stopped by %q (%s); want %q", p.Rate, p.Try, reason, detail, results.StopEventLoopLag)
		}
	}
}

// startExpress starts the express app from its folder with node, on
// loopback ports of its own, its metrics on another, with env added, and
// returns its URL, its metrics' URL and its pid once it answers. Its
// packages must be installed (npm ci).
func startExpress(t *testing.T, dbURL string, env ...string) (url, metricsURL string, pid int) {
	t.Helper()
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	addr, metrics := freeAddr(t), freeAddr(t)
	cmd := exec.Command("node", "src/main.js")
	cmd.Dir = filepath.Join(root, "apps", "express")
	cmd.Env = append(os.Environ(), append([]string{"DATABASE_URL=" + dbURL, "ADDR=" + addr, "METRICS_ADDR=" + metrics, "LOG_LEVEL=warn"}, env...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	url, metricsURL = "http://"+addr, "http://"+metrics+"/metrics"
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(url + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url, metricsURL, cmd.Process.Pid
			}
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			t.Fatalf("express did not answer %s/healthz in 30s (are its packages installed? npm ci)", url)
		}
	}
}

// freeAddr is a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return fmt.Sprintf("127.0.0.1:%d", l.Addr().(*net.TCPAddr).Port)
}
