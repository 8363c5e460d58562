package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"crudbench/bench/cost"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// attach reaches apps that are already running and finds their processes:
// by -pid, or by the executable's name, which is the app's name; with
// -no-proc, or for an app with replicas, it does not look.
func (r *runner) attach() {
	for _, name := range r.cfg.Apps {
		a, _ := r.cfg.Attached(name)
		app, err := scenario.NewApp(name, a.Kind, a.URL)
		u := &appUnderTest{app: app, unusable: err, debugURL: r.cfg.DebugURLs[name], metricsURLs: r.cfg.MetricsURLs[name]}
		switch pid, ok := r.cfg.PIDs[name]; {
		case r.cfg.NoProc:
			u.pidProblem = noProcReason
		case len(u.metricsURLs) > 1:
			u.pidProblem = fmt.Sprintf("it runs as %d replicas, which /proc cannot read as one app; their figures are added up", len(u.metricsURLs))
		case ok && stack.Alive(pid):
			u.pid = pid
		case ok:
			u.pidProblem = fmt.Sprintf("process %d (given with -pid) is not visible", pid)
		default:
			if pid, err := stack.FindProcess(name); err == nil {
				u.pid = pid
			} else {
				u.pidProblem = err.Error()
			}
		}
		r.noteSource(name, u)
		r.apps[name] = u
	}
}

// noProcReason is why an app's process is not read with -no-proc.
const noProcReason = "told not to use /proc (-no-proc)"

// noteSource says where an app's CPU and RSS come from when it is not
// /proc: its metrics, or nowhere.
func (r *runner) noteSource(name string, u *appUnderTest) {
	switch {
	case u.pidProblem == "":
	case len(u.metricsURLs) > 0:
		r.note(fmt.Sprintf("%s: CPU and RSS are read from its metrics (%s) once a second: %s.", name, strings.Join(u.metricsURLs, ", "), u.pidProblem))
	default:
		r.note(fmt.Sprintf("%s: CPU and RSS are unavailable: %s.", name, u.pidProblem))
	}
}

// builtinApps returns the table's rows of the measured apps.
func (r *runner) builtinApps() []stack.App {
	rows := make([]stack.App, 0, len(r.cfg.Apps))
	for _, name := range r.cfg.Apps {
		row, _ := stack.FindBuiltin(name) // config.Parse lets only built-in apps through
		rows = append(rows, row)
	}
	return rows
}

// startApps builds the apps, each from its row of the table, and starts
// each as its own process with the same settings plus its row's own.
func (r *runner) startApps(ctx context.Context, dbURL string) error {
	root, err := stack.ModuleRoot(ctx)
	if err != nil {
		return err
	}
	bin, err := os.MkdirTemp("", "crudbench-apps-")
	if err != nil {
		return err
	}
	r.undo(func() error { return os.RemoveAll(bin) })
	r.binDir = bin
	r.con.printf("Building %s…\n", strings.Join(r.cfg.Apps, ", "))
	rows := r.builtinApps()
	buildLog, err := os.Create(filepath.Join(r.dir, results.LogsDir, "build.log"))
	if err != nil {
		return err
	}
	r.undo(buildLog.Close)
	if err := stack.Build(ctx, root, bin, rows, buildLog); err != nil {
		return err
	}
	// Only now: the builds may use every CPU, and the runner's side must
	// be set before the threads that fork the apps are made.
	if err := r.pinRunner(); err != nil {
		return err
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	for _, row := range rows {
		logPath := filepath.Join(r.dir, results.LogsDir, row.Name+".log")
		logFile, err := os.Create(logPath)
		if err != nil {
			return err
		}
		r.undo(logFile.Close)
		u := &appUnderTest{toolchain: row.Toolchain, tree: row.Tree}
		u.start = func(ctx context.Context) (*stack.Process, error) {
			p, err := stack.StartApp(ctx, row, filepath.Join(bin, row.Name), stack.AppConfig{
				DatabaseURL: dbURL,
				DBMaxConns:  r.cfg.DBMaxConns,
				AuthSecret:  hex.EncodeToString(secret),
				Log:         logFile,
				CPUs:        r.cfg.CPUs.App,
			})
			if err != nil {
				return nil, fmt.Errorf("%w (log: %s)", err, logPath)
			}
			r.undo(p.Stop)
			return p, nil
		}
		p, err := u.start(ctx)
		if err != nil {
			return err
		}
		if err := u.use(row.Name, row.Kind, p, r.cfg.NoProc); err != nil {
			return err
		}
		if r.cfg.NoProc {
			r.noteSource(row.Name, u)
		}
		r.apps[row.Name] = u
		r.noteTree(row.Name, u)
		r.con.printf("Started %s at %s (pid %d%s).\n", row.Name, p.URL, p.PID, workers(p))
	}
	return nil
}

// use makes p, a process of the app called name of kind, the one u
// reaches and samples (not from /proc with noProc).
func (u *appUnderTest) use(name string, kind scenario.Kind, p *stack.Process, noProc bool) error {
	app, err := scenario.NewApp(name, kind, p.URL)
	if err != nil {
		return err
	}
	u.app, u.proc, u.pid, u.debugURL, u.metricsURLs = app, p, p.PID, p.DebugURL, []string{p.MetricsURL}
	if noProc {
		u.pid, u.pidProblem = 0, noProcReason
	}
	return nil
}

// restartApp stops the process of app, which the runner started, and
// starts it again with the same settings, so that what comes next meets a
// young process as the first measurement did: its log goes on in the same
// file. It returns the new process's id.
func (r *runner) restartApp(ctx context.Context, app string) (int, error) {
	u := r.apps[app]
	if err := u.proc.Stop(); err != nil {
		r.note(fmt.Sprintf("%s: stopping it to start it afresh: %v.", app, err))
	}
	p, err := u.start(ctx)
	if err != nil {
		return 0, err
	}
	if err := u.use(app, u.app.Kind, p, r.cfg.NoProc); err != nil {
		p.Stop()
		return 0, err
	}
	return p.PID, nil
}

// workers says, for the console, how many workers an app that runs as a
// tree forked.
func workers(p *stack.Process) string {
	if p.Workers == 0 {
		return ""
	}
	return ", " + plural(p.Workers, "worker")
}

// plural is n things, in words fit for a sentence.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// noteTree says that the figures of an app that runs as a tree of
// processes are their sum, and over how many workers.
func (r *runner) noteTree(name string, u *appUnderTest) {
	if !u.tree || u.pid == 0 {
		return
	}
	workers := "the workers it forks"
	if n := u.proc.Workers; n > 0 {
		workers = fmt.Sprintf("the %s it forked (one per CPU it may run on)", plural(n, "worker"))
	}
	r.note(fmt.Sprintf("%s: its CPU and RSS, idle RSS included, are the sum over its primary and %s: the CPU time of every process, and memory as Pss, which counts the pages they share once.", name, workers))
}

// sourcesFor chooses where the figures of app come from: its process (or
// process tree) when /proc sees it, its metrics when their URLs are known.
func (r *runner) sourcesFor(app string) cost.Sources {
	u := r.apps[app]
	src := cost.NewSources(app, u.pid, u.metricsURLs)
	if u.tree && u.pid > 0 {
		src = src.AsTree()
	}
	return src
}
