package runner

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// startedFleet is the runner as the phases reach it (its App and
// Restart) over the apps its setup started, but for the login, which it
// grants without a request: the fake launcher's processes answer none.
type startedFleet struct{ *runner }

func (f startedFleet) Login(_ context.Context, name string) (*scenario.Session, error) {
	return &scenario.Session{App: f.App(name).app, Header: http.Header{"Authorization": {"Bearer " + name}}}, nil
}

// TestRestartShared checks the one restart the runner does, before each
// capacity search with -repeat above 1, on rows that share one process
// (next-rest, next-graphql, next-trpc): the process is started once at
// setup; the search of any of its rows stops it once and starts it once
// more, as next-rest, its owner; every row of it is then measured on the
// new process, and each search records the process it measured. A row of
// its own (rest) is restarted alone.
func TestRestartShared(t *testing.T) {
	shared := []string{"next-rest", "next-graphql", "next-trpc"}
	apps := append([]string{"rest"}, shared...)
	cfg := testConfig([]string{"read-one"}, apps)
	cfg.Repeat = 2
	w := newWorld(t)
	p := newPhases(t, cfg, w)
	if err := os.MkdirAll(filepath.Join(p.m.dir, results.LogsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	l := &fakeLauncher{settings: map[string][]stack.AppConfig{}, failStart: map[string]error{}}
	s := &appStart{cfg: cfg, con: p.m.con, notes: p.notes, dir: p.m.dir, bin: t.TempDir(), launch: l,
		pin: func() error { return nil }, undo: func(func() error) {}}
	started, err := s.run(context.Background(), "/module", "postgres://db")
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cfg: cfg, apps: started}
	fleet := startedFleet{r}
	p.m.apps = fleet

	// Every attack is on the process started last, the rows of the shared
	// process on one, under their own names.
	w.serve = func(app string, opts load.Options, _ int) load.Summary {
		u := r.App(app)
		if want := 2000 + l.lastPID; u.proc.PID != want || l.stopped[want] {
			t.Errorf("%s attacked on pid %d, want %d, the process started last", app, u.proc.PID, want)
		}
		if app != "rest" {
			owner := r.App("next-rest").proc
			for _, name := range shared {
				if v := r.App(name); v.proc != owner || v.pid != owner.PID || v.app.BaseURL != owner.URL || v.app.Name != name {
					t.Errorf("attacking %s: %s is on pid %d at %s, want next-rest's pid %d at %s", app, name, v.pid, v.app.BaseURL, owner.PID, owner.URL)
				}
			}
		}
		return served(opts.Rate, opts.Duration, 5*time.Millisecond)
	}

	steps := len(l.steps)
	caps := (&capacitySearch{cfg: cfg, con: p.m.con, notes: p.notes, valid: validity{},
		apps: fleet, load: w, db: w, m: p.m, runID: "test", cores: 2}).run(context.Background())

	// Setup: one build, rest's process and next-rest's.
	if want := []string{"build rest,next-rest,next-graphql,next-trpc", "start rest", "start next-rest"}; !slices.Equal(l.steps[:steps], want) {
		t.Errorf("setup's steps %v, want %v", l.steps[:steps], want)
	}
	// The search: one stop and one start for each of its 2 × 4 jobs, in
	// the plan's order; the shared rows' starts are next-rest's.
	var want []string
	pid := map[string]int{"rest": 2001, "next-rest": 2002}
	searched := map[string]map[int]int{} // the process of each app's search, by its number
	last := 2002
	for _, j := range load.Plan([]string{capacityProfile}, cfg.Scenarios, apps, cfg.Repeat) {
		row, _ := stack.FindBuiltin(j.App)
		last++
		want = append(want, fmt.Sprintf("stop %d", pid[row.Process()]), "start "+row.Process())
		pid[row.Process()] = last
		if searched[j.App] == nil {
			searched[j.App] = map[int]int{}
		}
		searched[j.App][j.Repeat] = last
	}
	if got := l.steps[steps:]; !slices.Equal(got, want) {
		t.Errorf("the search's steps %v, want %v", got, want)
	}
	// Each search records the process it measured.
	if len(caps) != len(apps) {
		t.Fatalf("%d capacities, want %d", len(caps), len(apps))
	}
	for _, c := range caps {
		if len(c.Searches) != cfg.Repeat {
			t.Fatalf("%s: %d searches, want %d", c.App, len(c.Searches), cfg.Repeat)
		}
		for _, sr := range c.Searches {
			if want := searched[c.App][sr.Search]; sr.PID != want {
				t.Errorf("%s search %d on pid %d, want %d, the process started for it", c.App, sr.Search, sr.PID, want)
			}
		}
	}
	// At the end, every row of the shared process is on its last.
	owner := r.App("next-rest").proc
	if owner.PID != pid["next-rest"] {
		t.Errorf("next-rest ends on pid %d, want %d, the last started", owner.PID, pid["next-rest"])
	}
	for _, name := range shared {
		if u := r.App(name); u.proc != owner || u.pid != owner.PID || u.app.BaseURL != owner.URL {
			t.Errorf("%s ends on pid %d at %s, want next-rest's pid %d at %s", name, u.pid, u.app.BaseURL, owner.PID, owner.URL)
		}
	}
	if r.App("rest").proc == owner {
		t.Error("rest ends on next-rest's process")
	}
}
