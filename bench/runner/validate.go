package runner

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db/seed"
)

// Validate brings up (or attaches to) the apps as Run does, validates every
// scenario on every app and tears everything down again: a conformance
// check, with no load and no report. The validations come back in Run's
// order; dir is the results folder that holds the logs of what the runner
// started, "" in attach mode, where it writes nothing.
func Validate(ctx context.Context, cfg config.Config, stdout io.Writer) (vs []results.Validation, dir string, err error) {
	var dirs []string
	if cfg.Mode() != "attach" {
		dirs = []string{results.LogsDir}
	}
	r, err := newRunner(cfg, stdout, time.Now(), dirs...)
	if err != nil {
		return nil, "", err
	}
	if len(dirs) > 0 {
		dir = r.dir
	}
	run := r.newRun(ctx, time.Now())
	defer r.tearDown()
	if err := r.setup(ctx, run); err != nil {
		return nil, dir, err
	}
	r.validate(ctx, run)
	r.viewPages(ctx, run, false)
	return run.Validations, dir, nil
}

// validate runs the validation phase with the run's validator, made now
// when setup made none, records what it found for the phases that load
// the apps, and adds the validations to run.
func (r *runner) validate(ctx context.Context, run *results.Run) {
	if len(r.cfg.Apps) == 0 {
		return // only page scenarios: viewPages validates them
	}
	if r.validator == nil {
		// Attached alone, without a database to read: compare with what
		// the deterministic dataset holds, never with an app's own answers.
		r.validator = &scenario.Validator{Client: r.client, Ref: r.datasetReference()}
	}
	r.validator.Tag = fmt.Sprintf("crudbench %s validation", r.runID)
	v := &validation{cfg: r.cfg, con: r.con, apps: r, check: r.validator}
	var vs []results.Validation
	r.valid, vs = v.run(ctx, run.Settings.AppInfo)
	run.Validations = append(run.Validations, vs...)
}

// checker is what validation asks of the scenarios' checks
// (scenario.Validator).
type checker interface {
	// Validate checks scenario sc on the app of session s.
	Validate(ctx context.Context, s *scenario.Session, sc string) error
	// Interchange checks that the apps of a and b accept each other's
	// tokens.
	Interchange(ctx context.Context, a, b *scenario.Session) error
}

// validation is the phase that checks every scenario on every app before
// any load: a pair that fails is kept out of measurement, with its
// problem as the reason.
type validation struct {
	cfg   config.Config
	con   *console
	apps  fleet
	check checker
}

// run validates every scenario on every app of apps (the run's apps with
// their kinds), apps of kind rest first so that their answers can serve
// as the reference when the database is not reachable, and prints per app
// what passed and what failed. It returns what it found of each pair, and
// the validations in the order of scenarios, then apps.
func (v *validation) run(ctx context.Context, apps []results.App) (validity, []results.Validation) {
	v.con.printf("Validating %d scenario(s) on %d app(s)…\n", len(v.cfg.Scenarios), len(v.cfg.Apps))
	var rest, others []string
	for _, a := range apps {
		if a.Kind == string(scenario.KindREST) {
			rest = append(rest, a.Name)
		} else {
			others = append(others, a.Name)
		}
	}
	order := append(rest, others...)
	peer := v.tokenPeer(ctx, order)
	valid := validity{}
	for _, name := range order {
		v.validateApp(ctx, name, peer, valid)
	}
	var vs []results.Validation
	for _, sc := range v.cfg.Scenarios {
		for _, name := range v.cfg.Apps {
			err := valid.problem(sc, name)
			val := results.Validation{Scenario: sc, App: name, OK: err == nil}
			if err != nil {
				val.Problem = err.Error()
			}
			vs = append(vs, val)
		}
	}
	for _, a := range apps {
		v.print(a, vs)
	}
	return valid, vs
}

// validateApp logs in to app name, checks that it and peer (when not nil)
// accept each other's tokens, and validates every scenario on it,
// recording in valid what it found. A failed login or interchange fails
// every scenario but control, which needs no token.
func (v *validation) validateApp(ctx context.Context, name string, peer *scenario.Session, valid validity) {
	u := v.apps.App(name)
	var session *scenario.Session
	var loginErr error
	if u.unusable == nil {
		session, loginErr = v.apps.Login(ctx, name)
	}
	if loginErr == nil && peer != nil && peer.App.Name != name {
		loginErr = v.check.Interchange(ctx, session, peer)
	}
	for _, sc := range v.cfg.Scenarios {
		var err error
		switch {
		case u.unusable != nil:
			err = u.unusable
		case sc == scenario.Control && session == nil:
			err = v.check.Validate(ctx, &scenario.Session{App: u.app}, sc)
		case sc == scenario.Control:
			err = v.check.Validate(ctx, session, sc)
		case loginErr != nil:
			err = loginErr
		default:
			err = v.check.Validate(ctx, session, sc)
		}
		valid[[2]string{sc, name}] = err
	}
}

// tokenPeer logs in to the app whose tokens every other app of the run
// must accept, and whose apps must accept theirs: the first Go app in
// order (the Go apps share one token package, the contract's), else the
// first app. It returns nil in attach mode, where the runner cannot know
// that the apps share a secret, with one app, and when the login fails
// (which the peer's own validation reports).
func (v *validation) tokenPeer(ctx context.Context, order []string) *scenario.Session {
	if v.cfg.Mode() == "attach" || len(order) < 2 {
		return nil
	}
	name := order[0]
	for _, n := range order {
		if v.apps.App(n).toolchain == stack.ToolchainGo {
			name = n
			break
		}
	}
	if v.apps.App(name).unusable != nil {
		return nil
	}
	s, err := v.apps.Login(ctx, name)
	if err != nil {
		return nil
	}
	return s
}

// print prints one app's validation: the scenarios that passed on one
// line, then every failure on its own.
func (v *validation) print(app results.App, vs []results.Validation) {
	var passed []string
	var failed []results.Validation
	for _, val := range vs {
		switch {
		case val.App != app.Name:
		case val.OK:
			passed = append(passed, val.Scenario)
		default:
			failed = append(failed, val)
		}
	}
	if len(passed) == 0 {
		passed = []string{"none"}
	}
	v.con.printf("  %s (kind %s): passed %s\n", app.Name, app.Kind, strings.Join(passed, ", "))
	for _, val := range failed {
		// A mixed scenario's problems come one a line: indent them all.
		v.con.printf("    FAILED %s: %s\n", val.Scenario, strings.ReplaceAll(val.Problem, "\n", "\n      "))
	}
}

// datasetReference is what the reads must return, computed from the seed
// dataset of the configured size; nil, with a note, when it cannot be.
func (r *runner) datasetReference() *scenario.Reference {
	persons := r.cfg.Seed.Persons
	if persons <= 0 {
		persons = seed.DefaultPersons
	}
	ref, err := scenario.ReferenceFromDataset(seed.Generate(persons))
	if err != nil {
		r.note(fmt.Sprintf("The reference could not be computed from the dataset (%v); apps are compared with the REST app instead.", err))
		return nil
	}
	return ref
}
