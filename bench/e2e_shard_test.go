package main_test

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
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
	// time lies at first: shard 0 validates before it.
	shardLead = 6 * time.Second
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

// runShards runs the two shards of the load from a shared start time and
// returns their results folders. The start must lie beyond shard 0's
// validation and both shards' start-up, which a busy machine stretches
// from one second to several: when a shard says it was late (it fails, or
// skips its run), the shards run again with twice the lead.
func runShards(t *testing.T, env, common []string) []string {
	t.Helper()
	for lead := shardLead; ; lead *= 2 {
		startAt := time.Now().Add(lead).Truncate(time.Second).Format(time.RFC3339)
		dirs := make([]string, 2)
		errs := make([]error, len(dirs))
		var wg sync.WaitGroup
		for i := range dirs {
			out := t.TempDir()
			wg.Go(func() {
				_, errs[i] = execBench(t, env, append(common, "-shard", fmt.Sprintf("%d/2", i), "-start-at", startAt, "-out", out)...)
				dirs[i] = onlyFolder(out)
			})
		}
		wg.Wait()
		late := false
		for i, err := range errs {
			if err != nil {
				t.Logf("shard %d of a start %s ahead: %v", i, lead, err)
				late = true
				continue
			}
			for _, r := range readRun(t, dirs[i]).Results {
				late = late || r.Verdict == results.VerdictSkipped
			}
		}
		switch {
		case !late:
			return dirs
		case lead >= 8*shardLead:
			t.Fatalf("the shards were late for a start %s ahead: see their output above", lead)
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
