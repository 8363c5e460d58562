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
	return run.Validations, dir, nil
}

// validate checks every scenario on every app before any load, apps of
// kind rest first so that their answers can serve as the reference when
// the database is not reachable, and prints per app what passed and what
// failed.
func (r *runner) validate(ctx context.Context, run *results.Run) {
	if r.validator == nil {
		// Attached alone, without a database to read: compare with what
		// the deterministic dataset holds, never with an app's own answers.
		r.validator = &scenario.Validator{Client: r.client, Ref: r.datasetReference()}
	}
	r.validator.Tag = fmt.Sprintf("crudbench %s validation", r.runID)
	r.con.printf("Validating %d scenario(s) on %d app(s)…\n", len(r.cfg.Scenarios), len(r.cfg.Apps))
	var rest, others []string
	for _, a := range run.Settings.AppInfo {
		if a.Kind == string(scenario.KindREST) {
			rest = append(rest, a.Name)
		} else {
			others = append(others, a.Name)
		}
	}
	order := append(rest, others...)
	peer := r.tokenPeer(ctx, order)
	for _, name := range order {
		r.validateApp(ctx, name, peer)
	}
	for _, sc := range r.cfg.Scenarios {
		for _, name := range r.cfg.Apps {
			err := r.valid[[2]string{sc, name}]
			v := results.Validation{Scenario: sc, App: name, OK: err == nil}
			if err != nil {
				v.Problem = err.Error()
			}
			run.Validations = append(run.Validations, v)
		}
	}
	for _, a := range run.Settings.AppInfo {
		r.printValidation(a, run.Validations)
	}
}

// validateApp logs in to app name, checks that it and peer (when not nil)
// accept each other's tokens, and validates every scenario on it. A failed
// login or interchange fails every scenario but control, which needs no
// token.
func (r *runner) validateApp(ctx context.Context, name string, peer *scenario.Session) {
	u := r.apps[name]
	var session *scenario.Session
	var loginErr error
	if u.unusable == nil {
		session, loginErr = r.login(ctx, u)
	}
	if loginErr == nil && peer != nil && peer.App.Name != name {
		loginErr = r.validator.Interchange(ctx, session, peer)
	}
	for _, sc := range r.cfg.Scenarios {
		var err error
		switch {
		case u.unusable != nil:
			err = u.unusable
		case sc == scenario.Control && session == nil:
			err = r.validator.Validate(ctx, &scenario.Session{App: u.app}, sc)
		case sc == scenario.Control:
			err = r.validator.Validate(ctx, session, sc)
		case loginErr != nil:
			err = loginErr
		default:
			err = r.validator.Validate(ctx, session, sc)
		}
		r.valid[[2]string{sc, name}] = err
	}
}

// tokenPeer logs in to the app whose tokens every other app of the run
// must accept, and whose apps must accept theirs: the first Go app in
// order (the Go apps share one token package, the contract's), else the
// first app. It returns nil in attach mode, where the runner cannot know
// that the apps share a secret, with one app, and when the login fails
// (which the peer's own validation reports).
func (r *runner) tokenPeer(ctx context.Context, order []string) *scenario.Session {
	if r.cfg.Mode() == "attach" || len(order) < 2 {
		return nil
	}
	name := order[0]
	for _, n := range order {
		if r.apps[n].toolchain == stack.ToolchainGo {
			name = n
			break
		}
	}
	u := r.apps[name]
	if u.unusable != nil {
		return nil
	}
	s, err := r.login(ctx, u)
	if err != nil {
		return nil
	}
	return s
}

// printValidation prints one app's validation: the scenarios that passed
// on one line, then every failure on its own.
func (r *runner) printValidation(app results.App, vs []results.Validation) {
	var passed []string
	var failed []results.Validation
	for _, v := range vs {
		switch {
		case v.App != app.Name:
		case v.OK:
			passed = append(passed, v.Scenario)
		default:
			failed = append(failed, v)
		}
	}
	if len(passed) == 0 {
		passed = []string{"none"}
	}
	r.con.printf("  %s (kind %s): passed %s\n", app.Name, app.Kind, strings.Join(passed, ", "))
	for _, v := range failed {
		// A mixed scenario's problems come one a line: indent them all.
		r.con.printf("    FAILED %s: %s\n", v.Scenario, strings.ReplaceAll(v.Problem, "\n", "\n      "))
	}
}

func (r *runner) login(ctx context.Context, u *appUnderTest) (*scenario.Session, error) {
	pw := r.cfg.Seed.EditorPassword
	if pw == "" {
		pw = seed.DefaultEditorPassword
	}
	return u.app.Login(ctx, r.client, editorUser, pw)
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
