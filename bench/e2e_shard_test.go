package main_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// The sharded run: one read scenario on one app, at a rate two shards
// split, for a window short enough to keep the test cheap.
const (
	shardRate     = 100
	shardDuration = 4 * time.Second
	// shardLead is how far ahead of the shards' start the shared start
	// time lies: shard 0 validates before it.
	shardLead = 6 * time.Second
	// shardSLO is the SLO both runs are judged against: far above the
	// app's latency at this rate, so that a busy machine cannot make
	// either run slow.
	shardSLO = 250 * time.Millisecond
)

// TestShards sends one load as two shards of one schedule from two
// processes of the bench, merges their folders with bench merge, and sends
// the same load from one runner: the merged run must hold exactly the
// window one runner measures, at the same throughput.
func TestShards(t *testing.T) {
	row, _ := stack.FindBuiltin("rest")
	dbURL, procs := startApps(t, []stack.App{row})
	app := procs["rest"]
	env := []string{"DATABASE_URL=" + dbURL}
	common := []string{
		"-attach", "rest=" + app.URL, "-pid", "rest=" + strconv.Itoa(app.PID),
		"-scenarios", "read-one", "-rate", fmt.Sprintf("read-one=%d", shardRate),
		"-warmup", "1s", "-duration", shardDuration.String(), "-cooldown", "0s",
		"-slo-p99", shardSLO.String(),
	}
	if _, err := execBench(t, nil, "-h"); err != nil { // build it before the clock starts
		t.Fatal(err)
	}

	startAt := time.Now().Add(shardLead).Truncate(time.Second).Format(time.RFC3339)
	dirs := make([]string, 2)
	errs := make(chan error, len(dirs))
	for i := range dirs {
		out := t.TempDir()
		go func() {
			_, err := execBench(t, env, append(common, "-shard", fmt.Sprintf("%d/2", i), "-start-at", startAt, "-out", out)...)
			dirs[i] = onlyFolder(out)
			errs <- err
		}()
	}
	for range dirs {
		if err := <-errs; err != nil {
			t.Fatalf("shard: %v", err)
		}
	}
	shard1 := readRun(t, dirs[1])
	if len(shard1.Validations) != 0 {
		t.Errorf("shard 1 validated %+v: only shard 0 validates", shard1.Validations)
	}

	mergedOut := t.TempDir()
	if _, err := execBench(t, nil, append([]string{"merge", "-out", mergedOut}, dirs...)...); err != nil {
		t.Fatalf("bench merge: %v", err)
	}
	mergedDir := onlyFolder(mergedOut)
	merged := readRun(t, mergedDir)
	single, _, _ := runBench(t, env, common...)

	if merged.Settings.Shards != 2 || merged.Settings.Shard != nil {
		t.Errorf("merged settings: shards %d, shard %+v", merged.Settings.Shards, merged.Settings.Shard)
	}
	if len(merged.Validations) != 1 || !merged.Validations[0].OK {
		t.Errorf("merged validations %+v, want shard 0's one check", merged.Validations)
	}
	if len(merged.Results) != 1 || len(single.Results) != 1 {
		t.Fatalf("%d merged and %d single results, want one each", len(merged.Results), len(single.Results))
	}
	m, s := merged.Results[0], single.Results[0]
	t.Logf("at %d/s: p99 merged shards %.2f ms, one runner %.2f ms; throughput %.2f/s and %.2f/s; statements per request %.3f and %.3f",
		shardRate, m.Latency.P99, s.Latency.P99, m.Throughput, s.Throughput, m.DB.StatementsPerRequest, s.DB.StatementsPerRequest)
	want := uint64(shardRate * shardDuration.Seconds())
	if m.Requests != want || s.Requests != want {
		t.Errorf("requests: merged %d, single %d, want %d each", m.Requests, s.Requests, want)
	}
	if math.Abs(m.Throughput-s.Throughput) > 0.02*s.Throughput {
		t.Errorf("throughput: merged %.2f/s, single %.2f/s: more than 2%% apart", m.Throughput, s.Throughput)
	}
	// Shard 0 counts the statements of both shards' requests over its own
	// attack: the merge divides by both, give or take the requests the
	// other shard had in flight when shard 0 counted.
	if !m.DB.Available || math.Abs(m.DB.StatementsPerRequest-s.DB.StatementsPerRequest) > 0.05*s.DB.StatementsPerRequest {
		t.Errorf("statements per request: merged %.3f, single %.3f: want within 5%%", m.DB.StatementsPerRequest, s.DB.StatementsPerRequest)
	}
	for name, r := range map[string]results.Result{"merged": m, "single": s} {
		if r.Verdict != results.VerdictOK || r.SuccessRatio != 1 {
			t.Errorf("%s: verdict %s (%s), success %v: want both to hold %d/s within a p99 of %s", name, r.Verdict, r.Reason, r.SuccessRatio, shardRate, shardSLO)
		}
	}
	if got := countResults(t, filepath.Join(mergedDir, m.RawFile)); got != want {
		t.Errorf("the merged raw file holds %d results, want %d", got, want)
	}
}

// onlyFolder is the one results folder a run made under out, "" when
// there is none.
func onlyFolder(out string) string {
	files, _ := filepath.Glob(filepath.Join(out, "*", results.JSONFile))
	if len(files) != 1 {
		return ""
	}
	return filepath.Dir(files[0])
}

// readRun reads the results.json of a results folder.
func readRun(t *testing.T, dir string) *results.Run {
	t.Helper()
	if dir == "" {
		t.Fatal("no results folder")
	}
	run, err := results.Read(filepath.Join(dir, results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// countResults decodes a merged raw file, whose results must be the
// window's requests in order of their numbers, and counts them.
func countResults(t *testing.T, path string) uint64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := vegeta.NewDecoder(f)
	var n uint64
	for ; ; n++ {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("%s: %v", path, err)
			}
			return n
		}
		if r.Seq != n {
			t.Fatalf("%s: result %d has number %d, want the window in order", path, n, r.Seq)
		}
	}
}
