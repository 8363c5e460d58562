package main_test

import (
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/stack"
)

// TestReplicas benches one app run as two processes behind a round-robin
// load balancer, as on a cluster: -attach names the balancer, -metrics-url
// each replica. The app's cost must be the two processes' together: CPU
// from both, and RSS what /proc says both hold.
func TestReplicas(t *testing.T) {
	row, _ := stack.FindBuiltin("rest")
	dbURL, bin := startDatabase(t), buildApps(t, []stack.App{row})
	replicas := []*stack.Process{startApp(t, row, bin, dbURL), startApp(t, row, bin, dbURL)}
	var metrics []string
	for _, p := range replicas {
		metrics = append(metrics, "rest="+p.DebugURL+"/metrics")
	}
	balancer := roundRobin(t, replicas)

	run, dir, _ := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", "rest="+balancer.URL, "-metrics-url", strings.Join(metrics, ","),
		"-scenarios", "read-one", "-rate", "read-one=50",
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "1s", "-slo-p99", "1s")
	var rss float64
	for _, p := range replicas {
		b, err := sampler.ResidentBytes(p.PID)
		if err != nil {
			t.Fatal(err)
		}
		rss += float64(b) / results.BytesPerMB
	}

	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1", len(run.Results))
	}
	r := run.Results[0]
	c := r.AppCost
	t.Logf("2 replicas: CPU %.3f cores, %.3f CPU-ms per request; RSS mean %.1f MB, end %.1f MB; both processes' RSS after the run %.1f MB; pool %+v",
		c.CPUMean, c.CPUMsPerRequest, c.RSSMeanMB, c.RSSEndMB, rss, c.Pool)
	if !r.Measured() || r.SuccessRatio != 1 {
		t.Errorf("verdict %s (%s), success %v", r.Verdict, r.Reason, r.SuccessRatio)
	}
	if !c.Available || c.Source != results.SourceMetrics || c.Replicas != 2 || c.PID != 0 {
		t.Fatalf("app cost %+v, want 2 replicas' from metrics", c)
	}
	if c.CPUSeconds <= 0 || c.CPUMean <= 0 {
		t.Errorf("CPU %v s, mean %v: want both replicas' CPU", c.CPUSeconds, c.CPUMean)
	}
	// An idle Go process's RSS barely moves in the moment between the
	// last scrape and this read; one replica's alone is about half.
	if math.Abs(c.RSSEndMB-rss) > 0.1*rss {
		t.Errorf("RSS at the end %.1f MB, both processes hold %.1f MB: want within 10%%", c.RSSEndMB, rss)
	}
	if p := c.Pool; p == nil || p.MaxConns != 2*5 || p.Acquires == 0 {
		t.Errorf("pool %+v, want both replicas' (2 × 5 connections)", p)
	}
	for _, f := range results.ReplicaSamplesFiles(r.SamplesFile, 2) {
		if n := countLines(t, filepath.Join(dir, f)); n < 3 {
			t.Errorf("%s has %d lines, want a header and the replica's scrapes", f, n)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := "for rest (2 replicas, added up)"; !strings.Contains(string(md), want) {
		t.Errorf("report.md does not say %q", want)
	}

	t.Run("a replica not read", func(t *testing.T) {
		gone := httptest.NewServer(http.NotFoundHandler())
		gone.Close()
		unread := gone.URL + "/metrics"
		run, _, _ := runBench(t, []string{"DATABASE_URL=" + dbURL},
			"-attach", "rest="+balancer.URL, "-metrics-url", strings.Join(append(metrics, "rest="+unread), ","),
			"-scenarios", "read-one", "-rate", "read-one=50",
			"-warmup", "0s", "-duration", "1s", "-cooldown", "0s", "-prime", "1s", "-slo-p99", "1s")
		if c := run.Results[0].AppCost; c.Available || c.Replicas != 3 || c.Pool != nil {
			t.Errorf("app cost %+v, want n/a for 3 replicas, one never read", c)
		}
		if !slices.ContainsFunc(run.Notes, func(n string) bool {
			return strings.Contains(n, "the metrics of its replicas at "+unread+" could not be read")
		}) {
			t.Errorf("no note names the replica %s: %q", unread, run.Notes)
		}
	})
}

// roundRobin is a load balancer in front of the processes: each request
// goes to the next one in turn.
func roundRobin(t *testing.T, procs []*stack.Process) *httptest.Server {
	t.Helper()
	targets := make([]*url.URL, len(procs))
	for i, p := range procs {
		u, err := url.Parse(p.URL)
		if err != nil {
			t.Fatal(err)
		}
		targets[i] = u
	}
	var next atomic.Uint64
	s := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(targets[(next.Add(1)-1)%uint64(len(targets))])
		r.Out.Host = r.In.Host
	}})
	t.Cleanup(s.Close)
	return s
}
