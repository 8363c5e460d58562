package merge_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/merge"
	"crudbench/bench/report"
	"crudbench/bench/results"
)

// TestMerge merges two shards that really attacked a server and checks
// that the result is the whole window of one run, judged and costed per
// request of both.
func TestMerge(t *testing.T) {
	start := time.Now().Add(300 * time.Millisecond)
	dirs := makeShards(t, target(t), 2, start)
	shard0, err := results.Read(filepath.Join(dirs[0], results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	shard1, err := results.Read(filepath.Join(dirs[1], results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	run, dir, err := merge.Merge([]string{dirs[1], dirs[0]}, out, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != out {
		t.Errorf("merged into %s, want a folder under %s", dir, out)
	}
	s := run.Settings
	if s.Shard != nil || s.Shards != 2 {
		t.Errorf("settings shard %+v, shards %d: want none and 2", s.Shard, s.Shards)
	}
	if len(run.Validations) != 2 {
		t.Errorf("validations %+v, want shard 0's two", run.Validations)
	}
	if c := run.Runner; !c.Available || math.Abs(c.CPUMean-(shard0.Runner.CPUMean+shard1.Runner.CPUMean)) > 1e-9 || c.RSSMaxMB != 21 {
		t.Errorf("runner cost %+v, want the shards' CPU added up and the largest peak RSS", c)
	}
	if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, "Merged from 2 shards") }) {
		t.Errorf("notes %q do not say the run was merged", run.Notes)
	}
	if n := countContaining(run.Notes, "a note every shard has"); n != 1 {
		t.Errorf("a note every shard has is in the merged notes %d times, want once", n)
	}
	if len(run.Results) != 2 {
		t.Fatalf("%d results, want 2", len(run.Results))
	}

	t.Run("measured", func(t *testing.T) {
		r := run.Results[0]
		want := uint64(rate * duration.Seconds())
		if r.Requests != want || r.StatusCodes["200"] != int(want) || r.SuccessRatio != 1 {
			t.Errorf("requests %d, codes %v, success %v: want every one of the window's %d", r.Requests, r.StatusCodes, r.SuccessRatio, want)
		}
		if r.Requests != shard0.Results[0].Requests+shard1.Results[0].Requests {
			t.Errorf("%d requests, the shards had %d and %d", r.Requests, shard0.Results[0].Requests, shard1.Results[0].Requests)
		}
		// Neither can exceed the rate, measured from the schedule; a window
		// placed a slot away from where the shards sent would halve them.
		if r.TargetRate != rate || r.AchievedRate < rate/2 || r.AchievedRate > rate*(1+1e-9) || r.Throughput < rate/2 || r.Throughput > rate*(1+1e-9) {
			t.Errorf("target %v/s, achieved %v/s, throughput %v/s: want the whole rate %v/s, the others within [%v, %v]", r.TargetRate, r.AchievedRate, r.Throughput, rate, rate/2, rate)
		}
		if r.Verdict == results.VerdictFailed || r.Verdict == results.VerdictSkipped {
			t.Errorf("verdict %s (%s)", r.Verdict, r.Reason)
		}
		if got := sumRequests(r.Timeline); got != int(want) || len(r.Timeline) != 1 {
			t.Errorf("timeline %+v holds %d requests, want one second of %d", r.Timeline, got, want)
		}
		if r.AttackSuccesses != shard0.Results[0].AttackSuccesses+shard1.Results[0].AttackSuccesses {
			t.Errorf("attack successes %d, want the shards' sum", r.AttackSuccesses)
		}
		checkCosts(t, r)

		rs := readRaw(t, filepath.Join(dir, r.RawFile))
		if uint64(len(rs)) != want {
			t.Fatalf("merged raw file holds %d results, want %d", len(rs), want)
		}
		for i, x := range rs {
			if x.Seq != uint64(i) {
				t.Fatalf("raw result %d has seq %d: want the window in order from 0", i, x.Seq)
			}
		}
		for _, f := range append([]string{r.SamplesFile}, results.ReplicaSamplesFiles(r.SamplesFile, 2)...) {
			if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !strings.HasPrefix(string(b), "t,cpu") {
				t.Errorf("shard 0's samples %s not copied: %v", f, err)
			}
		}
	})
	t.Run("failed on shard 0", func(t *testing.T) {
		r := run.Results[1]
		if r.App != "graphql" || r.TargetRate != rate || r.Verdict != results.VerdictFailed || !strings.Contains(r.Reason, "shard 0 failed: validation failed") || r.Requests != 0 {
			t.Errorf("result %s %s %q with %d requests, want graphql failed with shard 0's reason and no numbers", r.App, r.Verdict, r.Reason, r.Requests)
		}
	})
	t.Run("report", func(t *testing.T) {
		if err := report.Write(dir, run); err != nil {
			t.Fatal(err)
		}
		md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "2 shards of one schedule, merged") {
			t.Error("report.md does not say the run was sharded")
		}
	})
}

// checkCosts checks that the merged result divides shard 0's costs by the
// requests of every shard.
func checkCosts(t *testing.T, r results.Result) {
	t.Helper()
	successes := float64(r.Requests) * r.SuccessRatio
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }
	if c := r.AppCost; !near(c.CPUMsPerRequest, 1000*appCPUSeconds/successes) || c.Pool == nil || !near(c.Pool.WaitMsPerRequest, 1000*poolWait/float64(r.Requests)) || c.Replicas != 2 {
		t.Errorf("app cost %+v (pool %+v): want shard 0's of 2 replicas, with CPU-ms and pool wait per request of the merged window", c, c.Pool)
	}
	if d := r.DB; !near(d.StatementsPerRequest, statements/float64(r.AttackSuccesses)) || !near(d.CPUMsPerRequest, 1000*dbCPUSeconds/successes) {
		t.Errorf("db cost %+v: want statements per successful request of both attacks, CPU-ms per success of the window", d)
	}
}

// TestMergeSkipped checks that a run one shard did not send is skipped in
// the merge, with that shard's reason.
func TestMergeSkipped(t *testing.T) {
	start := time.Now().Add(300 * time.Millisecond)
	dirs := makeShards(t, target(t), 2, start)
	edit(t, dirs[1], func(run *results.Run) {
		run.Results[0].Verdict = results.VerdictSkipped
		run.Results[0].Reason = "shard 1 reached this run's slot 3s late"
	})
	run, _, err := merge.Merge(dirs, t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r := run.Results[0]
	if r.Verdict != results.VerdictSkipped || !strings.Contains(r.Reason, "shard 1 skipped: shard 1 reached this run's slot 3s late") || r.RawFile != "" {
		t.Errorf("verdict %s (%s), raw file %q: want skipped with shard 1's reason and no files", r.Verdict, r.Reason, r.RawFile)
	}
}

// TestMergeRefuses checks that folders which are not all the shards of
// one run are refused with an error naming the problem.
func TestMergeRefuses(t *testing.T) {
	start := time.Now().Add(time.Hour)
	shardDir := func(t *testing.T, index, count int, change func(*results.Run)) string {
		t.Helper()
		run := baseRun(index, count, start)
		if change != nil {
			change(run)
		}
		dir := t.TempDir()
		if err := results.Write(dir, run); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, tc := range []struct {
		name string
		dirs func(t *testing.T) []string
		want string
	}{
		{"nothing", func(*testing.T) []string { return nil }, "no folders to merge"},
		{"not a results folder", func(t *testing.T) []string { return []string{t.TempDir()} }, "name a shard's results folder"},
		{"not a shard", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, func(r *results.Run) { r.Settings.Shard = nil }), shardDir(t, 1, 2, nil)}
		}, "not a shard"},
		{"missing shard", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 3, nil), shardDir(t, 2, 3, nil)}
		}, "shard 1 of 3 is missing"},
		{"duplicate index", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 0, 2, nil)}
		}, "are both shard 0 of 2"},
		{"another count", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 1, 3, nil)}
		}, "shard 1 of 3, but"},
		{"another start", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 1, 2, func(r *results.Run) { r.Settings.Shard.StartAt = start.Add(time.Second) })}
		}, "-start-at"},
		{"another gap", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 1, 2, func(r *results.Run) { r.Settings.Shard.Gap = results.Duration(2 * time.Second) })}
		}, "-shard-gap 2s"},
		{"another duration", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 1, 2, func(r *results.Run) { r.Settings.Duration = results.Duration(2 * time.Second) })}
		}, "duration 2s differ from"},
		{"another rate", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 1, 2, func(r *results.Run) { r.Settings.Rates["light"]["read-one"] = 80 })}
		}, "rates"},
		{"another app", func(t *testing.T) []string {
			return []string{shardDir(t, 0, 2, nil), shardDir(t, 1, 2, func(r *results.Run) { r.Settings.Apps = []string{"rest"} })}
		}, "apps [rest] differ"},
		{"repeats", func(t *testing.T) []string {
			repeat := func(r *results.Run) { r.Settings.Repeat = 3 }
			return []string{shardDir(t, 0, 2, repeat), shardDir(t, 1, 2, repeat)}
		}, "-repeat 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			_, _, err := merge.Merge(tc.dirs(t), out, time.Now())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if left, _ := os.ReadDir(out); len(left) > 0 {
				t.Errorf("a refused merge left %d entries in -out", len(left))
			}
		})
	}
}

// edit changes a shard's results.json.
func edit(t *testing.T, dir string, change func(*results.Run)) {
	t.Helper()
	path := filepath.Join(dir, results.JSONFile)
	run, err := results.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	change(run)
	b, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func sumRequests(seconds []results.Second) int {
	n := 0
	for _, s := range seconds {
		n += s.Requests
	}
	return n
}

func countContaining(notes []string, s string) int {
	n := 0
	for _, x := range notes {
		if strings.Contains(x, s) {
			n++
		}
	}
	return n
}

// TestMergeRefusesOverlap checks that raw files holding the same requests
// (one shard's file given as another's) are refused, leaving no folder.
func TestMergeRefusesOverlap(t *testing.T) {
	start := time.Now().Add(300 * time.Millisecond)
	dirs := makeShards(t, target(t), 2, start)
	b, err := os.ReadFile(filepath.Join(dirs[0], rawFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dirs[1], rawFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, _, err = merge.Merge(dirs, out, time.Now())
	if err == nil || !strings.Contains(err.Error(), "both hold request 0 of the window") {
		t.Fatalf("error %v, want one saying both files hold request 0", err)
	}
	if left, _ := os.ReadDir(out); len(left) > 0 {
		t.Errorf("a failed merge left %d entries in -out", len(left))
	}
}
