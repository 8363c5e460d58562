package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"crudbench/bench/config"
	"crudbench/bench/cost"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db/seed"
)

// attach reaches apps that are already running and finds their processes:
// by -pid, or by the executable's name, which is the app's name; with
// -no-proc, or for an app with replicas, it does not look.
func (r *runner) attach() {
	for _, name := range r.cfg.Apps {
		a, _ := r.cfg.Attached(name)
		base := a.URL
		if a.Kind == scenario.KindAMQP {
			// a.URL is its broker's (attachBroker); its requests go to
			// the contract's queue there.
			base = scenario.AMQPBaseURL(scenario.AMQPQueue)
		}
		app, err := scenario.NewApp(name, a.Kind, base)
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
		r.book.source(name, u)
		r.apps[name] = u
	}
}

// noProcReason is why an app's process is not read with -no-proc.
const noProcReason = "told not to use /proc (-no-proc)"

// source says where an app's CPU and RSS come from when it is not /proc:
// its metrics, or nowhere.
func (b *notebook) source(name string, u *appUnderTest) {
	switch {
	case u.pidProblem == "":
	case len(u.metricsURLs) > 0:
		b.note(fmt.Sprintf("%s: CPU and RSS are read from its metrics (%s) once a second: %s.", name, strings.Join(u.metricsURLs, ", "), u.pidProblem))
	default:
		b.note(fmt.Sprintf("%s: CPU and RSS are unavailable: %s.", name, u.pidProblem))
	}
}

// startApps builds the apps into a folder of their own and starts them
// (appStart).
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
	s := &appStart{cfg: r.cfg, con: r.con, notes: &r.book, dir: r.dir, bin: bin,
		launch: stackLauncher{}, pin: r.pinRunner, undo: r.undo, amqpURL: r.broker.url}
	apps, err := s.run(ctx, root, dbURL)
	maps.Copy(r.apps, apps)
	r.webs = s.fronts
	return err
}

// launcher builds the apps the runner starts and starts their processes.
type launcher interface {
	// Build builds apps, rows of the table, from the module at root into
	// dir, logging to log.
	Build(ctx context.Context, root, dir string, apps []stack.App, log io.Writer) error
	// Start starts app, built as bin, with cfg's settings, and returns
	// its process once it is ready.
	Start(ctx context.Context, app stack.App, bin string, cfg stack.AppConfig) (*stack.Process, error)
	// Stop stops p, a process Start returned.
	Stop(p *stack.Process) error
}

// stackLauncher is the launcher of package stack.
type stackLauncher struct{}

// Build is stack.Build.
func (stackLauncher) Build(ctx context.Context, root, dir string, apps []stack.App, log io.Writer) error {
	return stack.Build(ctx, root, dir, apps, log)
}

// Start is stack.StartApp.
func (stackLauncher) Start(ctx context.Context, app stack.App, bin string, cfg stack.AppConfig) (*stack.Process, error) {
	return stack.StartApp(ctx, app, bin, cfg)
}

// Stop is p.Stop.
func (stackLauncher) Stop(p *stack.Process) error { return p.Stop() }

// appStart is the part of setup that builds the measured apps, each from
// its row of the table, and starts each as its own process with the same
// settings plus its row's own.
type appStart struct {
	cfg   config.Config
	con   *console
	notes *notebook
	// dir is the results folder, whose logs receive the build's output
	// and each app's; bin is where the apps are built.
	dir, bin string
	launch   launcher
	// pin moves the runner onto its own CPUs (pinRunner); undo registers
	// what tear-down undoes (runner.undo).
	pin  func() error
	undo func(func() error)
	// amqpURL is the broker the amqp apps consume from (startBroker).
	amqpURL string
	// fronts are the front ends of the table run started (pageRows), by
	// name.
	fronts map[string]*frontEnd
}

// run builds the apps from the module at root and starts each with the
// database at dbURL, and returns them by name; it stops at the first that
// cannot be built or started, returning those started so far.
func (s *appStart) run(ctx context.Context, root, dbURL string) (map[string]*appUnderTest, error) {
	rows := make([]stack.App, 0, len(s.cfg.Apps))
	for _, name := range s.cfg.Apps {
		row, _ := stack.FindBuiltin(name) // config.Parse lets only built-in apps through
		rows = append(rows, row)
	}
	// The page scenarios' front ends come last, after the APIs they front.
	apis, fronts := pageRows(s.cfg)
	rows = slices.Concat(rows, apis, fronts)
	names := make([]string, len(rows))
	for i, row := range rows {
		names[i] = row.Name
	}
	s.con.printf("Building %s…\n", strings.Join(names, ", "))
	buildLog, err := os.Create(filepath.Join(s.dir, results.LogsDir, "build.log"))
	if err != nil {
		return nil, err
	}
	s.undo(buildLog.Close)
	if err := s.launch.Build(ctx, root, s.bin, rows, buildLog); err != nil {
		return nil, err
	}
	// Only now: the builds may use every CPU, and the runner's side must
	// be set before the threads that fork the apps are made.
	if err := s.pin(); err != nil {
		return nil, err
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	apps := map[string]*appUnderTest{}
	s.fronts = map[string]*frontEnd{}
	// The first row of a process starts it; the rows that share it
	// (stack.App.Shares) are measured on it.
	owners := map[string]*appUnderTest{}
	for _, row := range rows {
		if owner, ok := owners[row.Process()]; ok {
			u := &appUnderTest{toolchain: row.Toolchain, tree: row.Tree, start: owner.start, stop: owner.stop, process: row.Process()}
			if err := u.use(row.Name, row.Kind, owner.proc, s.cfg.NoProc); err != nil {
				return apps, err
			}
			if s.cfg.NoProc {
				s.notes.source(row.Name, u)
			}
			apps[row.Name] = u
			s.con.printf("%s is served by the same process (pid %d).\n", row.Name, owner.proc.PID)
			continue
		}
		logPath := filepath.Join(s.dir, results.LogsDir, row.Process()+".log")
		logFile, err := os.Create(logPath)
		if err != nil {
			return apps, err
		}
		s.undo(logFile.Close)
		u := &appUnderTest{toolchain: row.Toolchain, tree: row.Tree, process: row.Process(), stop: s.launch.Stop}
		owners[row.Process()] = u
		apiURL := ""
		if row.Fronts != "" {
			apiURL = apps[row.Fronts].proc.URL // pageRows put the API first
		}
		u.start = func(ctx context.Context) (*stack.Process, error) {
			p, err := s.launch.Start(ctx, row, filepath.Join(s.bin, row.Name), stack.AppConfig{
				DatabaseURL: dbURL,
				DBMaxConns:  s.cfg.DBMaxConns,
				AuthSecret:  hex.EncodeToString(secret),
				Log:         logFile,
				CPUs:        s.cfg.CPUs.App,
				AMQPURL:     s.amqpURL,
				APIURL:      apiURL,
			})
			if err != nil {
				return nil, fmt.Errorf("%w (log: %s)", err, logPath)
			}
			s.undo(func() error { return s.launch.Stop(p) })
			return p, nil
		}
		p, err := u.start(ctx)
		if err != nil {
			return apps, err
		}
		if row.Fronts != "" {
			s.fronts[row.Name] = s.frontOf(row, p, apps[row.Fronts])
			s.con.printf("Started %s at %s (pid %d), in front of %s.\n", row.Name, p.URL, p.PID, row.Fronts)
			continue
		}
		if err := u.use(row.Name, row.Kind, p, s.cfg.NoProc); err != nil {
			return apps, err
		}
		if s.cfg.NoProc {
			s.notes.source(row.Name, u)
		}
		apps[row.Name] = u
		s.notes.tree(row.Name, u)
		s.con.printf("Started %s at %s (pid %d%s).\n", row.Name, p.URL, p.PID, workers(p))
	}
	s.notes.shared(s.cfg.Apps, apps)
	return apps, nil
}

// shared says, for every process that serves more than one of the apps
// (names, in report order), that their figures are that one process's.
func (b *notebook) shared(names []string, apps map[string]*appUnderTest) {
	byProcess := map[string][]string{}
	var order []string
	for _, name := range names {
		u := apps[name]
		if u == nil || u.process == "" {
			continue
		}
		if byProcess[u.process] == nil {
			order = append(order, u.process)
		}
		byProcess[u.process] = append(byProcess[u.process], name)
	}
	for _, p := range order {
		if rows := byProcess[p]; len(rows) > 1 {
			b.note(fmt.Sprintf("%s share one process, started once: the CPU and RSS of each are that process's, whichever API was driven, and its idle RSS holds every API's code.", strings.Join(rows, ", ")))
		}
	}
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

// App is the app called name as the runner reaches it.
func (r *runner) App(name string) *appUnderTest { return r.apps[name] }

// Login logs in to the app called name as the editor.
func (r *runner) Login(ctx context.Context, name string) (*scenario.Session, error) {
	pw := r.cfg.Seed.EditorPassword
	if pw == "" {
		pw = seed.DefaultEditorPassword
	}
	return r.apps[name].app.Login(ctx, r.client, editorUser, pw)
}

// Restart stops the process of app, which the runner started, and
// starts it again with the same settings, so that what comes next meets a
// young process as the first measurement did: its log goes on in the same
// file. It returns the new process's id.
func (r *runner) Restart(ctx context.Context, app string) (int, error) {
	u := r.apps[app]
	if err := u.stop(u.proc); err != nil {
		r.note(fmt.Sprintf("%s: stopping it to start it afresh: %v.", app, err))
	}
	p, err := u.start(ctx)
	if err != nil {
		return 0, err
	}
	if err := u.use(app, u.app.Kind, p, r.cfg.NoProc); err != nil {
		u.stop(p)
		return 0, err
	}
	// The apps that share the process go on with the new one.
	for name, w := range r.apps {
		if w != u && w.process != "" && w.process == u.process {
			if err := w.use(name, w.app.Kind, p, r.cfg.NoProc); err != nil {
				return 0, err
			}
		}
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

// tree says that the figures of an app that runs as a tree of processes
// are their sum, and over how many workers.
func (b *notebook) tree(name string, u *appUnderTest) {
	if !u.tree || u.pid == 0 {
		return
	}
	workers := "the workers it forks"
	if n := u.proc.Workers; n > 0 {
		workers = fmt.Sprintf("the %s it forked (one per CPU it may run on)", plural(n, "worker"))
	}
	b.note(fmt.Sprintf("%s: its CPU and RSS, idle RSS included, are the sum over its primary and %s: the CPU time of every process, and memory as Pss, which counts the pages they share once.", name, workers))
}

// sources chooses where the figures of u, the app called name, come
// from: its process (or process tree) when /proc sees it, its metrics when
// their URLs are known.
func (u *appUnderTest) sources(name string) cost.Sources {
	src := cost.NewSources(name, u.pid, u.metricsURLs)
	if u.tree && u.pid > 0 {
		src = src.AsTree()
	}
	if u.brokerPID > 0 || u.queueDepth != nil {
		src = src.WithBroker(u.brokerPID, u.queueDepth)
	}
	return src
}
