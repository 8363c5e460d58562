// Package runner is the benchmark itself: it brings up (or attaches to) the
// apps it measures, validates every scenario on every app, drives each at the
// profiles' constant rates one app at a time (and, with -capacity, searches
// each for the highest rate that meets the SLO), samples CPU and memory of
// the apps and of PostgreSQL, counts SQL statements, and returns everything
// as a results.Run for the report writers. What it is told comes from
// package config.
//
// A run is a sequence of phases, each a type with its own inputs: setup
// (the database and the apps), validation, the fixed profiles
// (fixedProfiles, each run a measurer's) and the capacity search
// (capacitySearch). They reach the apps, the load generator with its
// samplers and the database through small interfaces (fleet, attacker,
// database, checker), which the runner implements once setup is done, so
// that each phase is tested alone with fakes of them.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/cost"
	"crudbench/bench/dbprobe"
	"crudbench/bench/grpcwire"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// ErrInterrupted is returned (wrapped) when the context ended the run
// early; the Run returned beside it holds what was measured until then.
var ErrInterrupted = errors.New("benchmark interrupted")

// editorUser writes as well as reads, so one login serves every scenario.
const editorUser = "editor"

// appUnderTest is one app as the runner reaches it.
type appUnderTest struct {
	app *scenario.App
	// unusable says why the app cannot be driven at all (a bad -attach
	// URL); every scenario then fails validation with it.
	unusable error
	// pid is the process sampled for CPU and RSS; 0 when not visible, and
	// then pidProblem says why.
	pid        int
	pidProblem string
	// proc is the process when the runner started the app, nil when
	// attached; toolchain is then what it runs on, and tree says it runs
	// as a primary and its workers, whose figures are added up.
	proc      *stack.Process
	toolchain stack.Toolchain
	tree      bool
	// start starts the app the runner started once more, with the same
	// settings (runner.Restart); nil for an attached app.
	start func(ctx context.Context) (*stack.Process, error)
	// stop stops a process start returned (runner.Restart stops the one
	// the app runs on first); nil for an attached app.
	stop func(p *stack.Process) error
	// process names the row whose process serves the app (its own name,
	// or the row it shares it with: stack.App.Process); empty when
	// attached.
	process string
	// debugURL is the app's admin address, where it serves pprof; empty
	// when it has none (a Node app, an attached app without -debug-url).
	debugURL string
	// brokerPID is an amqp app's broker's Erlang VM, sampled with it as
	// PostgreSQL is (0: not the runner's, or another kind), and
	// queueDepth reads its request queue's depth (nil: another kind).
	brokerPID  int
	queueDepth func() (int, error)
	// metricsURLs are where the app serves its Prometheus metrics: its
	// admin address's /metrics, or an attached app's -metrics-url, one
	// per replica; none when unknown.
	metricsURLs []string
}

// runner holds the state of one Run.
type runner struct {
	cfg    config.Config
	con    *console
	dir    string
	runID  string
	client *http.Client
	// root is the module's folder, "" outside the repository (e.g. in a
	// container); binDir is where the apps the runner starts were built.
	root, binDir string

	apps map[string]*appUnderTest
	// webs are the front ends of stack.FrontEnds setup started, by name
	// (pages.go).
	webs map[string]*frontEnd
	// teardown undoes, last first, what setup brought up.
	teardown []func() error

	probe        *dbprobe.Probe
	statementsOK bool
	dbPID        int
	// broker is the amqp apps' RabbitMQ (broker.go).
	broker runBroker

	validator *scenario.Validator
	valid     validity

	// ledger books what the run costs the runner itself.
	ledger *cost.Ledger
	book   notebook
}

// Run benchmarks as cfg says and returns the run with the folder its files
// went to (raw results, samples, app logs; the reports are written by the
// caller). Progress and messages go to stdout. When ctx ends, the current
// attack stops, the rest is marked skipped, everything is torn down, and
// the partial Run is returned with an error wrapping ErrInterrupted.
func Run(ctx context.Context, cfg config.Config, stdout io.Writer) (run *results.Run, dir string, err error) {
	started := time.Now()
	r, err := newRunner(cfg, stdout, started, results.RawDir, results.SamplesDir, results.LogsDir)
	if err != nil {
		return nil, "", err
	}
	run = r.newRun(ctx, started)
	defer r.tearDown()
	if err := r.setup(ctx, run); err != nil {
		return nil, r.dir, err
	}
	run.Stacks = r.stackFacts(ctx)

	if err := r.validateShared(ctx, run); err != nil {
		return nil, r.dir, err
	}
	// The page scenarios first: a restart of an API (-repeat, -capacity)
	// would leave its front end's static server passing to a port gone.
	r.viewPages(ctx, run, true)
	m := r.measurer()
	profiles := &fixedProfiles{cfg: r.cfg, con: r.con, notes: &r.book, valid: r.valid, m: m}
	run.Results = append(run.Results, profiles.run(ctx)...)
	search := &capacitySearch{cfg: r.cfg, con: r.con, notes: &r.book, valid: r.valid,
		apps: r, load: r, db: r, m: m, runID: r.runID, cores: runtime.NumCPU(), dbPID: r.dbPID}
	run.Capacities = append(run.Capacities, search.run(ctx)...)
	r.checkVacancies(context.WithoutCancel(ctx), run.Environment.Dataset["vacancy"])

	run.Runner = r.ledger.Runner()
	run.SamplerOverhead = r.ledger.SamplerOverhead()
	run.Notes = slices.Concat(results.MethodNotes(r.method()), r.book.notes)
	run.FinishedAt = time.Now().UTC()
	if ctx.Err() != nil {
		return run, r.dir, fmt.Errorf("%w: %v", ErrInterrupted, context.Cause(ctx))
	}
	return run, r.dir, nil
}

// newRunner returns the state of a run starting now, with its results
// folder and the given folders in it; without any, it makes no folder.
func newRunner(cfg config.Config, stdout io.Writer, started time.Time, dirs ...string) (*runner, error) {
	r := &runner{
		cfg:    cfg,
		ledger: cost.NewLedger(),
		con:    newConsole(stdout, cfg.Apps),
		runID:  results.RunID(started),
		apps:   map[string]*appUnderTest{},
		valid:  validity{},
	}
	// Validation, logins and cleanup reach grpc apps over one connection
	// each; the loads have connections of their own (attack).
	wire := grpcwire.New(1)
	r.client = scenario.NewClient(cfg.Timeout, wire)
	r.undo(wire.Close)
	for _, n := range cfg.Notes {
		r.con.printf("%s\n", n)
		r.note(n)
	}
	r.dir = results.Folder(cfg.Out, started, cfg.ShardSettings())
	for _, sub := range dirs {
		if err := os.MkdirAll(filepath.Join(r.dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("results folder: %w", err)
		}
	}
	return r, nil
}

// newRun returns the results of a run starting now, with its settings and
// what it knows of the machine.
func (r *runner) newRun(ctx context.Context, started time.Time) *results.Run {
	cfg := r.cfg
	if cfg.ClosedLoop() {
		cfg.Rates = nil // a closed loop sends none: its clients set the rate
	}
	run := &results.Run{
		SchemaVersion: results.SchemaVersion,
		StartedAt:     started.UTC(),
		Settings: results.Settings{
			Profiles: cfg.Profiles, Scenarios: cfg.Scenarios, Apps: cfg.Apps,
			Warmup: results.Duration(cfg.Warmup), Duration: results.Duration(cfg.Duration),
			Cooldown: results.Duration(cfg.Cooldown), Prime: results.Duration(cfg.Prime), Timeout: results.Duration(cfg.Timeout),
			MaxConnections: cfg.MaxConnections, GRPCConns: cfg.MeasuredGRPCConns(), AMQPConns: cfg.MeasuredAMQPConns(), Repeat: cfg.Repeat,
			SampleInterval: results.Duration(cfg.SampleInterval), DBMaxConns: cfg.DBMaxConns,
			Rates: cfg.Rates, Model: cfg.Model, Clients: cfg.Clients, SLOP99: results.Duration(cfg.SLOP99), Capacity: cfg.Capacity.Settings(),
			ProfileCPU: cfg.ProfileCPU, AppInfo: cfg.AppInfo(), Shard: cfg.ShardSettings(),
		},
		Environment: results.Environment{
			CPUModel: cpuModel(), CPUCount: runtime.NumCPU(), Kernel: kernel(),
			GoVersion: runtime.Version(), Mode: cfg.Mode(),
		},
		Validations: []results.Validation{},
		Results:     []results.Result{},
	}
	r.root, _ = stack.ModuleRoot(ctx) // "" outside the repository, e.g. in a container
	run.Environment.GitCommit = sourceCommit(ctx, r.root, buildCommit)
	return run
}

// measurer measures the runs of the fixed profiles and the capacity
// search's confirmations on what setup brought up.
func (r *runner) measurer() *measurer {
	return &measurer{cfg: r.cfg, runID: r.runID, dir: r.dir, con: r.con, notes: &r.book, apps: r, load: r, db: r}
}

// undo registers f to run at tear-down, before everything registered
// earlier.
func (r *runner) undo(f func() error) { r.teardown = append(r.teardown, f) }

// tearDown undoes, last first, what the run brought up.
func (r *runner) tearDown() {
	for i := len(r.teardown) - 1; i >= 0; i-- {
		if err := r.teardown[i](); err != nil {
			r.con.printf("cleanup: %v\n", err)
		}
	}
}

// checkVacancies notes when the database holds another number of
// vacancies than before the run: write cleanup left rows behind. A shard
// cannot tell: other shards may still be writing.
func (r *runner) checkVacancies(ctx context.Context, before int64) {
	if r.probe == nil || r.cfg.Shard != nil {
		return
	}
	if after, err := r.probe.CountVacancies(ctx); err == nil && after != before {
		r.note(fmt.Sprintf("The database held %d vacancies before the run and %d after: write cleanup left rows behind.", before, after))
	}
}
