package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/cost"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
)

// A run goes through phases, each a type of its own with its own inputs:
// setup (setup.go, apps.go), validation (validation), the fixed profiles
// (fixedProfiles, each run a measurer's) and the capacity search
// (capacitySearch). What a phase asks of the world — the apps, the load
// generator with its samplers, the database — it asks through the small
// interfaces below, which the runner implements for real once setup has
// brought everything up, and which a phase's tests fake.

// fleet is how a phase reaches the apps under test.
type fleet interface {
	// App is the app called name as the runner reaches it.
	App(name string) *appUnderTest
	// Login logs in to the app called name as the editor, who writes as
	// well as reads, so one login serves every scenario.
	Login(ctx context.Context, name string) (*scenario.Session, error)
	// Restart stops the app called name, which the runner started (its
	// start is not nil), and starts it afresh with the same settings; it
	// returns the new process's id.
	Restart(ctx context.Context, name string) (pid int, err error)
}

// attacker is the load generator with its samplers.
type attacker interface {
	// Attack sends wl's requests to app as opts say while app's sources
	// (src), PostgreSQL, the runner and the machine are sampled, and
	// returns what the attack measured (nil when it could not run), the
	// series the samplers recorded, and what the attack cost the runner.
	Attack(ctx context.Context, app string, wl *scenario.Workload, opts load.Options, src cost.Sources) (*load.Outcome, map[string]sampler.Series, cost.Usage, error)
	// Prime sends wl's requests to app as opts say, unwatched, and
	// discards the answers: a priming pass.
	Prime(ctx context.Context, app string, wl *scenario.Workload, opts load.Options) error
}

// database is what a phase reads of the database's cost and rows, and how
// it removes the rows a write run left.
type database interface {
	// Statements is PostgreSQL's running count of statements executed;
	// errNoStatements when they are not counted.
	Statements(ctx context.Context) (uint64, error)
	// VacancyCount is the number of vacancies before a write run, for
	// CleanupWrites to compare with; -1 when it says nothing (see
	// runner.VacancyCount).
	VacancyCount(ctx context.Context) int64
	// CleanupWrites deletes every row the run of wl, whose rows' titles
	// start with tag, left alive, and checks the vacancies are as many as
	// before (unless before is -1).
	CleanupWrites(ctx context.Context, wl *scenario.Workload, tag string, before int64) error
}

// validity is what validation found of every (scenario, app): nil for a
// pair that passed, the problem for one that failed.
type validity map[[2]string]error

// problem is the validation problem of scenario sc on app, nil when it
// passed.
func (v validity) problem(sc, app string) error { return v[[2]string{sc, app}] }

// count counts the jobs whose scenario passed validation on their app.
func (v validity) count(jobs []load.Job) int {
	n := 0
	for _, j := range jobs {
		if v.problem(j.Scenario, j.App) == nil {
			n++
		}
	}
	return n
}

// notebook holds a run's notes, each once, in the order first noted.
type notebook struct {
	notes []string
}

// note records s among the notes, once.
func (b *notebook) note(s string) {
	if !slices.Contains(b.notes, s) {
		b.notes = append(b.notes, s)
	}
}

// unread says that the run called what has no app cost because the
// replicas at unread could not be read over its window.
func (b *notebook) unread(what string, unread []string) {
	if len(unread) == 0 {
		return
	}
	b.note(fmt.Sprintf("%s: the app's CPU, RSS and pool are n/a: the metrics of its replicas at %s could not be read over the measured window, and a sum of the others' would be too low.", what, strings.Join(unread, ", ")))
}

// pool says why app's pool wait is n/a when the runner scraped its
// metrics, at metricsURLs, and found no pool counters there (an attached
// app that exports none).
func (b *notebook) pool(app string, metricsURLs []string, c results.ProcessCost) {
	if c.Pool != nil || len(metricsURLs) != 1 {
		return
	}
	b.note(fmt.Sprintf("%s: its pool wait is n/a: its metrics (%s) gave no pool counters over the window (pgxpool_acquire_count_total, pgxpool_acquire_duration_seconds_total).", app, metricsURLs[0]))
}
