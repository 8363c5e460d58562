package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"crudbench/bench/cpuset"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// fakeLauncher builds nothing and starts processes that are only their
// numbers; it records the steps in order and the settings each start got.
type fakeLauncher struct {
	steps    []string
	settings map[string][]stack.AppConfig
	// stopped are the processes stopped, by id.
	stopped map[int]bool
	// fail makes the build, or an app's start, fail.
	failBuild error
	failStart map[string]error
	// workers is how many workers a tree app forks.
	workers int
	lastPID int
}

func (l *fakeLauncher) Build(_ context.Context, _, _ string, apps []stack.App, _ io.Writer) error {
	var names []string
	for _, a := range apps {
		names = append(names, a.Name)
	}
	l.steps = append(l.steps, "build "+strings.Join(names, ","))
	return l.failBuild
}

func (l *fakeLauncher) Start(_ context.Context, app stack.App, bin string, cfg stack.AppConfig) (*stack.Process, error) {
	l.steps = append(l.steps, "start "+filepath.Base(bin))
	l.settings[app.Name] = append(l.settings[app.Name], cfg)
	if err := l.failStart[app.Name]; err != nil {
		return nil, err
	}
	l.lastPID++
	p := &stack.Process{Name: app.Name, PID: 2000 + l.lastPID,
		URL:        fmt.Sprintf("http://127.0.0.1:%d", 9000+l.lastPID),
		DebugURL:   fmt.Sprintf("http://127.0.0.1:%d", 9500+l.lastPID),
		MetricsURL: fmt.Sprintf("http://127.0.0.1:%d/metrics", 9500+l.lastPID)}
	if app.Tree {
		p.Workers = l.workers
	}
	return p, nil
}

func (l *fakeLauncher) Stop(p *stack.Process) error {
	l.steps = append(l.steps, fmt.Sprintf("stop %d", p.PID))
	if l.stopped[p.PID] {
		return fmt.Errorf("%s (pid %d) stopped twice", p.Name, p.PID)
	}
	if l.stopped == nil {
		l.stopped = map[int]bool{}
	}
	l.stopped[p.PID] = true
	return nil
}

// TestAppStart drives the apps' part of setup with a fake launcher, and
// checks what it starts, in which order, with which settings, and what it
// says.
func TestAppStart(t *testing.T) {
	tests := []struct {
		name   string
		apps   []string
		noProc bool
		// change sets the launcher up to fail.
		change func(*fakeLauncher)
		// wantSteps are the launcher's steps, "pin" the runner's pinning.
		wantSteps   []string
		wantErr     string
		wantNotes   []string
		wantConsole []string
	}{
		{
			name: "builds, pins the runner, then starts each app", apps: []string{"rest", "express"},
			wantSteps:   []string{"build rest,express", "pin", "start rest", "start express"},
			wantConsole: []string{"Building rest, express…", "Started rest at http://127.0.0.1:9001 (pid 2001).", "Started express at http://127.0.0.1:9002 (pid 2002)."},
		},
		{
			name: "an app run as a tree is its processes' sum", apps: []string{"express-cluster"},
			wantSteps:   []string{"build express-cluster", "pin", "start express-cluster"},
			wantNotes:   []string{"express-cluster: its CPU and RSS, idle RSS included, are the sum over its primary and the 2 workers it forked"},
			wantConsole: []string{"(pid 2001, 2 workers)."},
		},
		{
			name: "-no-proc reads the apps' metrics", apps: []string{"rest"}, noProc: true,
			wantSteps: []string{"build rest", "pin", "start rest"},
			wantNotes: []string{"rest: CPU and RSS are read from its metrics (http://127.0.0.1:9501/metrics) once a second: " + noProcReason},
		},
		{
			name: "a build that fails starts nothing", apps: []string{"rest", "express"},
			change:    func(l *fakeLauncher) { l.failBuild = errors.New("build express: npm ci: exit status 1") },
			wantSteps: []string{"build rest,express"}, wantErr: "build express: npm ci",
		},
		{
			name: "an app that does not start names its log", apps: []string{"rest", "express"},
			change:    func(l *fakeLauncher) { l.failStart["express"] = errors.New("express exited before it was ready") },
			wantSteps: []string{"build rest,express", "pin", "start rest", "start express"},
			wantErr:   "express exited before it was ready (log: ",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig([]string{"read-one"}, tt.apps)
			cfg.DBMaxConns, cfg.NoProc, cfg.CPUs.App = 7, tt.noProc, cpuset.Set{1}
			p := newPhases(t, cfg, newWorld(t))
			if err := os.MkdirAll(filepath.Join(p.m.dir, results.LogsDir), 0o755); err != nil {
				t.Fatal(err)
			}
			l := &fakeLauncher{settings: map[string][]stack.AppConfig{}, failStart: map[string]error{}, workers: 2}
			if tt.change != nil {
				tt.change(l)
			}
			var undone []func() error
			s := &appStart{cfg: cfg, con: p.m.con, notes: p.notes, dir: p.m.dir, bin: t.TempDir(), launch: l,
				pin:  func() error { l.steps = append(l.steps, "pin"); return nil },
				undo: func(f func() error) { undone = append(undone, f) }}
			apps, err := s.run(context.Background(), "/module", "postgres://db")

			if !slices.Equal(l.steps, tt.wantSteps) {
				t.Errorf("steps %v, want %v", l.steps, tt.wantSteps)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
				}
				if strings.Contains(tt.wantErr, "(log: ") && !strings.Contains(err.Error(), filepath.Join(p.m.dir, results.LogsDir, "express.log")) {
					t.Errorf("error %v does not name express's log", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var secret string
			for _, name := range tt.apps {
				u := apps[name]
				if u == nil || u.app == nil || u.app.Name != name || u.proc == nil {
					t.Fatalf("%s: %+v, want the app started", name, u)
				}
				wantPID := u.proc.PID
				if tt.noProc {
					wantPID = 0
				}
				if u.pid != wantPID || !slices.Equal(u.metricsURLs, []string{u.proc.MetricsURL}) || u.debugURL != u.proc.DebugURL {
					t.Errorf("%s: pid %d, metrics %v, debug %q; want %d and its process's", name, u.pid, u.metricsURLs, u.debugURL, wantPID)
				}
				got := l.settings[name][0]
				if got.DatabaseURL != "postgres://db" || got.DBMaxConns != 7 || !slices.Equal(got.CPUs, cfg.CPUs.App) || len(got.AuthSecret) != 64 {
					t.Errorf("%s started with %+v, want the run's database, pool, CPUs and a 32-byte secret", name, got)
				}
				if secret != "" && got.AuthSecret != secret {
					t.Errorf("%s has a secret of its own: the apps must share one, or their tokens are not interchangeable", name)
				}
				secret = got.AuthSecret

				// Started afresh, with the same settings.
				again, err := u.start(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if re := l.settings[name][1]; again.PID == u.proc.PID || re.DatabaseURL != got.DatabaseURL || re.DBMaxConns != got.DBMaxConns ||
					re.AuthSecret != got.AuthSecret || re.Log != got.Log || !slices.Equal(re.CPUs, got.CPUs) {
					t.Errorf("%s started afresh as pid %d with %+v, want a new process with %+v", name, again.PID, l.settings[name][1], got)
				}
			}
			// Two logs (the build's, each app's) and two processes per app.
			if want := 1 + 3*len(tt.apps); len(undone) != want {
				t.Errorf("%d things to undo, want %d", len(undone), want)
			}
			for _, want := range tt.wantNotes {
				if !p.hasNote(want) {
					t.Errorf("notes lack %q:\n%s", want, strings.Join(p.notes.notes, "\n"))
				}
			}
			for _, want := range tt.wantConsole {
				if !strings.Contains(p.out.String(), want) {
					t.Errorf("console lacks %q:\n%s", want, p.out)
				}
			}
		})
	}
}

// TestAppStartShared checks that rows sharing one process (next-rest,
// next-graphql, next-trpc) start it once, are each measured on it, and
// that the notes say so.
func TestAppStartShared(t *testing.T) {
	apps := []string{"rest", "next-rest", "next-graphql", "next-trpc"}
	cfg := testConfig([]string{"read-one"}, apps)
	p := newPhases(t, cfg, newWorld(t))
	if err := os.MkdirAll(filepath.Join(p.m.dir, results.LogsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	l := &fakeLauncher{settings: map[string][]stack.AppConfig{}, failStart: map[string]error{}}
	s := &appStart{cfg: cfg, con: p.m.con, notes: p.notes, dir: p.m.dir, bin: t.TempDir(), launch: l,
		pin: func() error { return nil }, undo: func(func() error) {}}
	got, err := s.run(context.Background(), "/module", "postgres://db")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"build rest,next-rest,next-graphql,next-trpc", "start rest", "start next-rest"}; !slices.Equal(l.steps, want) {
		t.Errorf("steps %v, want %v: one process for the three next rows", l.steps, want)
	}
	owner := got["next-rest"]
	for _, name := range apps[2:] {
		u := got[name]
		if u == nil || u.app.Name != name || u.proc != owner.proc || u.pid != owner.proc.PID || u.app.BaseURL != owner.app.BaseURL {
			t.Errorf("%s: %+v, want next-rest's process (pid %d) under its own name", name, u, owner.proc.PID)
		}
	}
	if got["rest"].proc == owner.proc {
		t.Error("rest shares next-rest's process")
	}
	if !p.hasNote("next-rest, next-graphql, next-trpc share one process, started once") {
		t.Errorf("notes lack the shared process:\n%s", strings.Join(p.notes.notes, "\n"))
	}
	if !strings.Contains(p.out.String(), fmt.Sprintf("next-trpc is served by the same process (pid %d).", owner.proc.PID)) {
		t.Errorf("console lacks the shared process:\n%s", p.out)
	}
}
