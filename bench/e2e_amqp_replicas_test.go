package main_test

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"crudbench/bench/broker"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// TestAMQPReplicas benches an amqp app run as two processes consuming one
// queue of one broker, with no load balancer in front: -attach names the
// broker, -metrics-url each replica. The broker shares the requests out,
// so each replica must have answered a share of them, as its own counter
// of answered messages says; the app's cost is the two processes'
// together.
func TestAMQPReplicas(t *testing.T) {
	requireBroker(t)
	node, err := broker.Start(context.Background(), broker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Stop() })
	row, _ := stack.FindBuiltin("amqp")
	dbURL, bin := startDatabase(t), buildApps(t, []stack.App{row})
	replicas := []*stack.Process{startAMQPApp(t, row, bin, dbURL, node.URL()), startAMQPApp(t, row, bin, dbURL, node.URL())}
	var metrics []string
	before := make([]float64, len(replicas))
	for i, p := range replicas {
		metrics = append(metrics, "amqp="+p.MetricsURL)
		before[i] = answered(t, p.MetricsURL)
	}

	run, dir, _ := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", "amqp="+node.URL(), "-metrics-url", strings.Join(metrics, ","),
		"-scenarios", "read-one", "-rate", "read-one=50",
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "0s", "-slo-p99", "1s")

	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1", len(run.Results))
	}
	r := run.Results[0]
	if !r.Measured() || r.SuccessRatio != 1 {
		t.Errorf("verdict %s (%s), success %v", r.Verdict, r.Reason, r.SuccessRatio)
	}
	// The counters also hold validation's and the warm-up's requests, so
	// each replica's share is judged against the window's alone: a
	// quarter of it at least, where the broker's turns give each half.
	var total float64
	for i, p := range replicas {
		served := answered(t, p.MetricsURL) - before[i]
		total += served
		t.Logf("replica %d answered %.0f requests; the window had %d", i+1, served, r.Requests)
		if served < float64(r.Requests)/4 {
			t.Errorf("replica %d answered %.0f requests, want a share of the window's %d (a quarter at least)", i+1, served, r.Requests)
		}
	}
	if total < float64(r.Requests) {
		t.Errorf("the replicas answered %.0f requests together, fewer than the window's %d", total, r.Requests)
	}

	c := r.AppCost
	t.Logf("2 replicas: CPU %.3f s, %.3f cores, %.3f CPU-ms per request", c.CPUSeconds, c.CPUMean, c.CPUMsPerRequest)
	if !c.Available || c.Source != results.SourceMetrics || c.Replicas != 2 || c.PID != 0 {
		t.Fatalf("app cost %+v, want 2 replicas' from metrics", c)
	}
	// Each replica spent CPU over its scrapes, and the app's CPU in the
	// window is theirs added up: more than none, no more than both spent
	// over all their scrapes.
	var spent float64
	for i, f := range results.ReplicaSamplesFiles(r.SamplesFile, 2) {
		s := cpuSpent(t, filepath.Join(dir, f))
		if s <= 0 {
			t.Errorf("replica %d spent %v s of CPU over its scrapes, want some", i+1, s)
		}
		spent += s
	}
	if c.CPUSeconds <= 0 || c.CPUSeconds > spent*1.05 {
		t.Errorf("the app's CPU %.4f s, the replicas spent %.4f s over their scrapes: want the window's share of their sum", c.CPUSeconds, spent)
	}
	if p := c.Pool; p == nil || p.MaxConns != 2*5 || p.Acquires == 0 {
		t.Errorf("pool %+v, want both replicas' (2 × 5 connections)", p)
	}
	if b := r.Broker; b == nil || !b.QueueAvailable {
		t.Errorf("broker cost %+v, want the one queue's depth", b)
	}
}

// startAMQPApp starts a process of the amqp app of row, built into bin,
// on the database at dbURL, consuming the request queue of the broker at
// brokerURL; every process shares e2eSecret, as startApp's do.
func startAMQPApp(t *testing.T, row stack.App, bin, dbURL, brokerURL string) *stack.Process {
	t.Helper()
	p, err := stack.StartApp(context.Background(), row, filepath.Join(bin, row.Name), stack.AppConfig{
		DatabaseURL: dbURL, DBMaxConns: 5, AuthSecret: e2eSecret, AMQPURL: brokerURL, Log: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop() })
	return p
}

// answered is the number of request messages the amqp app whose metrics
// are at url has answered: its amqp_request_duration_seconds histogram's
// counts over every operation and status.
func answered(t *testing.T, url string) float64 {
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
	var n float64
	for _, line := range strings.Split(string(body), "\n") {
		if !strings.HasPrefix(line, "amqp_request_duration_seconds_count{") {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", url, line, err)
		}
		n += v
	}
	return n
}

// cpuSpent is the CPU seconds a samples file's process spent from its
// first sample to its last.
func cpuSpent(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 3 || rows[0][1] != "cpu_seconds" {
		t.Fatalf("%s: %d rows, header %q: want a header and two samples at least", path, len(rows), rows[0])
	}
	first, _ := strconv.ParseFloat(rows[1][1], 64)
	last, _ := strconv.ParseFloat(rows[len(rows)-1][1], 64)
	return last - first
}
