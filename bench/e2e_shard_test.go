package main_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/barrier"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// The sharded run: one read scenario on one app, at a rate two shards
// split, for a window short enough to keep the test cheap.
const (
	shardRate     = 100
	shardDuration = 4 * time.Second
	// shardSLO is the SLO both runs are judged against: far above the
	// app's latency at this rate on a machine with two CPU hogs beside
	// the test, so that the verdicts are usually ok (only checked to
	// match the figures).
	shardSLO = 250 * time.Millisecond
)

// TestShards sends one load as two shards of one schedule from two
// processes of the bench, merges their folders with bench merge, and sends
// the same load from one runner: the merged run must hold exactly the
// window one runner measures, with the same successes.
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

	dirs := runShards(t, env, common)
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
	// What the merge must get right and no timing can move: the window
	// holds every request of the schedule once, and as many succeed as
	// from one runner (all of them). The throughputs of the two runs are
	// not compared with each other: each divides by a span that ends at
	// its last answer, which a busy machine moves by tens of
	// milliseconds. Each is bounded by its own run's figures instead.
	want := uint64(shardRate * shardDuration.Seconds())
	if m.Requests != want || s.Requests != want {
		t.Errorf("requests: merged %d, single %d, want %d each", m.Requests, s.Requests, want)
	}
	if ms, ss := successes(m), successes(s); ms != ss {
		t.Errorf("successes: merged %d, single %d: want the same", ms, ss)
	}
	checkRates(t, "merged", m)
	checkRates(t, "single", s)
	// Shard 0 counts the statements of both shards' requests over its own
	// attack: the merge divides by both, give or take the requests the
	// other shard had in flight when shard 0 started or stopped counting.
	// At most the rate times the slowest answer are in flight at either
	// edge, each a few statements.
	inFlight := 2 * (shardRate*m.Latency.Max/1000 + 1) / float64(m.Requests)
	if tol := max(0.05, inFlight); !m.DB.Available || math.Abs(m.DB.StatementsPerRequest-s.DB.StatementsPerRequest) > tol*s.DB.StatementsPerRequest {
		t.Errorf("statements per request: merged %.3f, single %.3f: want within %.1f%%", m.DB.StatementsPerRequest, s.DB.StatementsPerRequest, 100*tol)
	}
	// Whether a run held its rate within the SLO is the machine's doing;
	// that the merged verdict is the one its merged figures call for is
	// the merge's.
	for name, r := range map[string]results.Result{"merged": m, "single": s} {
		if r.SuccessRatio != 1 {
			t.Errorf("%s: success %v, want every request to succeed", name, r.SuccessRatio)
		}
		checkVerdict(t, r, shardSLO)
	}
	if got := countResults(t, filepath.Join(mergedDir, m.RawFile)); got != want {
		t.Errorf("the merged raw file holds %d results, want %d", got, want)
	}
}

// runShards runs the two shards of the load, meeting at a start barrier
// in a folder both see, and returns their results folders. Shard 1 starts
// only once shard 0 has validated and waits at the barrier: the shared
// start must then be set when shard 1 is ready, not by a lead guessed
// ahead, and neither shard may reach its slot late.
func runShards(t *testing.T, env, common []string) []string {
	t.Helper()
	barrierDir := filepath.Join(t.TempDir(), "barrier")
	dirs := make([]string, 2)
	errs := make([]error, len(dirs))
	done := make([]chan struct{}, len(dirs))
	for i := range dirs {
		done[i] = make(chan struct{})
	}
	run := func(i int) {
		out := t.TempDir()
		go func() {
			defer close(done[i])
			_, errs[i] = execBench(t, env, append(common, "-shard", fmt.Sprintf("%d/2", i), "-barrier", barrierDir, "-barrier-timeout", "2m", "-out", out)...)
			dirs[i] = onlyFolder(out)
		}()
	}
	run(0)
	waitReady(t, filepath.Join(barrierDir, "ready-0"), done[0])
	run(1)
	for i := range dirs {
		<-done[i]
		if errs[i] != nil {
			t.Fatalf("shard %d: %v", i, errs[i])
		}
	}
	checkBarrier(t, barrierDir, dirs)
	return dirs
}

// waitReady waits until the shard whose run ends with done has said it is
// ready in file: it then waits at the barrier. A shard that ends first
// failed before the barrier.
func waitReady(t *testing.T, file string, done <-chan struct{}) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(file); err == nil {
			return
		}
		select {
		case <-done:
			t.Fatalf("shard 0 ended before it was ready at the barrier (%s): see its output above", file)
		case <-tick.C:
		}
	}
}

// checkBarrier checks that the barrier set the shards' start after both
// were ready, shard 1 the later, that both shards ran from it, on time,
// and that their notes say so.
func checkBarrier(t *testing.T, barrierDir string, dirs []string) {
	t.Helper()
	start, set, err := barrier.ReadStart(barrierDir)
	if err != nil || !set {
		t.Fatalf("the barrier's start in %s: set %v, %v", barrierDir, set, err)
	}
	if len(start.Missing) != 0 || !start.Ready[1].After(start.Ready[0]) || start.SetAt.Before(start.Ready[1]) || !start.At.After(start.SetAt) {
		t.Errorf("barrier start %+v: want it set once shard 1 was ready, after shard 0, and for later", start)
	}
	for i, dir := range dirs {
		run := readRun(t, dir)
		if run.Settings.Shard == nil || !run.Settings.Shard.StartAt.Equal(start.At) {
			t.Errorf("shard %d ran from %+v, want the barrier's start %s", i, run.Settings.Shard, start.At)
		}
		for _, r := range run.Results {
			if r.Verdict == results.VerdictSkipped {
				t.Errorf("shard %d skipped %s: %s", i, r.Scenario, r.Reason)
			}
		}
		note := fmt.Sprintf("Start barrier: shard %d/2 was ready", i)
		if !slices.ContainsFunc(run.Notes, func(n string) bool {
			return strings.HasPrefix(n, note) && strings.Contains(n, "all 2 shards were ready") && strings.Contains(n, "before the start")
		}) {
			t.Errorf("shard %d's notes %q: want one saying all shards were ready and it learned the start before it", i, run.Notes)
		}
	}
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
