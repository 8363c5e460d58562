package merge_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// The run the shards of these tests share: one scenario on one measured
// app and one that failed validation, at a rate whose window is short.
const (
	rate     = 40
	warmup   = 250 * time.Millisecond
	duration = time.Second
	rawFile  = "raw/light-read-one-rest.bin"
	samples  = "samples/light-read-one-rest.csv"
)

// The costs shard 0 reports of the app and of PostgreSQL, which the merge
// divides by every shard's requests.
const (
	appCPUSeconds = 0.4
	poolWait      = 0.02
	statements    = 300
	dbCPUSeconds  = 0.1
)

// target answers every request with a small body.
func target(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "hello")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// baseRun is a shard's results.json without its results.
func baseRun(index, count int, start time.Time) *results.Run {
	return &results.Run{
		SchemaVersion: results.SchemaVersion,
		StartedAt:     start.Add(-time.Second),
		FinishedAt:    start.Add(2 * time.Second),
		Settings: results.Settings{
			Profiles: []string{"light"}, Scenarios: []string{"read-one"}, Apps: []string{"rest", "graphql"},
			Warmup: results.Duration(warmup), Duration: results.Duration(duration),
			Timeout: results.Duration(5 * time.Second), MaxConnections: 10, Repeat: 1,
			Rates:  map[string]map[string]float64{"light": {"read-one": rate}},
			SLOP99: results.Duration(results.DefaultSLOP99),
			Shard:  &results.Shard{Index: index, Count: count, StartAt: start, Gap: results.Duration(time.Second)},
		},
		Validations: []results.Validation{},
		Runner:      results.ProcessCost{Available: true, CPUMean: 0.1 * float64(index+1), CPUMax: 0.2, CPUMsPerRequest: 0.5, RSSMaxMB: 20 + float64(index)},
		Notes:       []string{"a note every shard has"},
	}
}

// makeShards runs count shards of the schedule from start against url,
// each writing its raw results and results.json into a folder of its own
// as a runner does, and returns the folders in shard order.
func makeShards(t *testing.T, url string, count int, start time.Time) []string {
	t.Helper()
	dirs := make([]string, count)
	errs := make(chan error, count)
	for i := range count {
		dirs[i] = t.TempDir()
		go func() { errs <- makeShard(dirs[i], url, i, count, start) }()
	}
	for range count {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	return dirs
}

// makeShard attacks as shard index of count and writes its folder.
func makeShard(dir, url string, index, count int, start time.Time) error {
	if err := os.MkdirAll(filepath.Join(dir, "raw"), 0o755); err != nil {
		return err
	}
	raw, err := os.Create(filepath.Join(dir, rawFile))
	if err != nil {
		return err
	}
	defer raw.Close()
	tr := vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: url + "/api/persons/1"})
	out, err := load.Attack(context.Background(), tr, load.Options{
		Name: "light/read-one/rest", Rate: rate, Warmup: warmup, Duration: duration,
		Timeout: 5 * time.Second, MaxConnections: 10, Raw: raw,
		Shard: &load.Shard{Index: index, Count: count, Start: start},
	})
	if err != nil {
		return err
	}
	run := baseRun(index, count, start)
	res := results.Result{
		// A shard is judged by its share of the rate, as the runner does.
		Profile: "light", Scenario: "read-one", App: "rest", TargetRate: rate / float64(count),
		RawFile: rawFile, SamplesFile: samples, AttackSuccesses: out.Succeeded,
	}
	out.Summary.Record(&res)
	res.Judge(results.DefaultSLOP99)
	if index == 0 {
		run.Validations = []results.Validation{{Scenario: "read-one", App: "rest", OK: true}, {Scenario: "read-one", App: "graphql", Problem: "no person"}}
		res.AppCost = results.ProcessCost{
			// The app ran as two replicas, their figures added up.
			Available: true, Source: results.SourceMetrics, Replicas: 2, CPUMean: 0.3, CPUMax: 0.5, CPUSeconds: appCPUSeconds,
			CPUMsPerRequest: 1000 * appCPUSeconds / float64(out.Summary.Successes), RSSMaxMB: 30,
			Pool: &results.PoolCost{Acquires: 40, AcquireWaitSeconds: poolWait, MaxConns: 4},
		}
		res.DB = results.DBCost{Available: true, Statements: statements, CPUAvailable: true, CPUSeconds: dbCPUSeconds, CPUMean: 0.1}
		if err := os.MkdirAll(filepath.Join(dir, "samples"), 0o755); err != nil {
			return err
		}
		for _, f := range append([]string{samples}, results.ReplicaSamplesFiles(samples, 2)...) {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("t,cpu,rss\n0,0.1,1000\n"), 0o644); err != nil {
				return err
			}
		}
	}
	failed := results.Result{Profile: "light", Scenario: "read-one", App: "graphql", TargetRate: rate / float64(count),
		Verdict: results.VerdictFailed, Reason: "validation failed: no person", StatusCodes: map[string]int{}, Errors: []string{}}
	if index > 0 {
		// Only shard 0 validates: the others load every app.
		failed = res
		failed.App, failed.RawFile = "graphql", "raw/light-read-one-graphql.bin"
	}
	run.Results = []results.Result{res, failed}
	return results.Write(dir, run)
}

// readRaw decodes a raw file.
func readRaw(t *testing.T, path string) []vegeta.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rs []vegeta.Result
	dec := vegeta.NewDecoder(f)
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if err == io.EOF {
				return rs
			}
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
}
