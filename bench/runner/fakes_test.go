package runner

// The phases' tests are the package's own (not runner_test's): the phases
// and the interfaces they reach the world through are the runner's
// internals, and exporting them for tests alone would make them its API.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/cost"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// world fakes what the phases reach: apps that answer no request, a load
// generator whose every attack the test's serve decides, and a database
// that counts statements for the requests served. It records what the
// phases asked of it.
type world struct {
	apps map[string]*appUnderTest
	// serve says what app's n-th attack (from 1) at opts measures; nil
	// serves everything well within any SLO.
	serve func(app string, opts load.Options, n int) load.Summary
	// dead are the apps that refuse every login and request.
	dead map[string]bool
	// cores is what an app's process uses while it is attacked, as its
	// sampler reads it, with rssMB of memory; none is read for an app
	// without.
	cores map[string]float64
	rssMB uint64
	// attacks are every attack's name and rate in order; attacked counts
	// them by app; primes names the priming passes; restarts counts the
	// restarts by app; cleanups names the tags of the rows cleaned up.
	attacks  []attackCall
	attacked map[string]int
	primes   []string
	restarts map[string]int
	cleanups []string
	// statements is the database's running count: statementsPerRequest
	// for every successful request served.
	statements uint64
	lastPID    int
}

// attackCall is one attack the world was asked for.
type attackCall struct {
	Name string
	Rate float64
}

// statementsPerRequest is what the fake database runs per successful
// request.
const statementsPerRequest = 3

// newWorld returns a world with apps of kind rest called names, the first
// a Go app, the others Node apps, each started by the runner (it can be
// restarted) with its own process id.
func newWorld(t *testing.T, names ...string) *world {
	t.Helper()
	w := &world{apps: map[string]*appUnderTest{}, dead: map[string]bool{}, cores: map[string]float64{}, rssMB: 50,
		attacked: map[string]int{}, restarts: map[string]int{}}
	for i, name := range names {
		app, err := scenario.NewApp(name, scenario.KindREST, "http://127.0.0.1:9")
		if err != nil {
			t.Fatal(err)
		}
		toolchain := stack.ToolchainNode
		if i == 0 {
			toolchain = stack.ToolchainGo
		}
		w.lastPID++
		w.apps[name] = &appUnderTest{app: app, pid: 1000 + w.lastPID, toolchain: toolchain,
			start: func(context.Context) (*stack.Process, error) {
				return nil, errors.New("a fake app is restarted by the world")
			}}
	}
	return w
}

// refused is why a dead app answers nothing.
var refused = errors.New("dial tcp 127.0.0.1:9: connect: connection refused")

func (w *world) App(name string) *appUnderTest { return w.apps[name] }

func (w *world) Login(_ context.Context, name string) (*scenario.Session, error) {
	if w.dead[name] {
		return nil, fmt.Errorf("log in to %s: %w", name, refused)
	}
	return &scenario.Session{App: w.apps[name].app, Header: http.Header{"Authorization": {"Bearer " + name}}}, nil
}

func (w *world) Restart(_ context.Context, name string) (int, error) {
	w.restarts[name]++
	w.lastPID++
	w.apps[name].pid = 1000 + w.lastPID
	return w.apps[name].pid, nil
}

func (w *world) Attack(ctx context.Context, app string, _ *scenario.Workload, opts load.Options, _ cost.Sources) (*load.Outcome, map[string]sampler.Series, cost.Usage, error) {
	w.attacks = append(w.attacks, attackCall{opts.Name, opts.Rate})
	w.attacked[app]++
	var s load.Summary
	switch {
	case w.dead[app]:
		s = refusedSummary(opts.Rate, opts.Duration)
	case w.serve != nil:
		s = w.serve(app, opts, w.attacked[app])
	default:
		s = served(opts.Rate, opts.Duration, 5*time.Millisecond)
	}
	start := time.Now()
	out := &load.Outcome{
		Began: start, End: start.Add(opts.Warmup + opts.Duration),
		Window:  &load.Window{Start: start.Add(opts.Warmup), End: start.Add(opts.Warmup + opts.Duration)},
		Summary: s, Sent: s.Requests, Succeeded: s.Successes,
	}
	w.statements += statementsPerRequest * s.Successes
	series := map[string]sampler.Series{}
	if c := w.cores[app]; c > 0 {
		series[app] = w.sampled(app, c, out.Began, out.End)
	}
	return out, series, cost.Usage{}, ctx.Err()
}

// sampled is the series a sampler reads every 100 ms from start to end of
// app's process using cores of CPU and w.rssMB of memory.
func (w *world) sampled(app string, cores float64, start, end time.Time) sampler.Series {
	ser := sampler.Series{Target: sampler.Target{Name: app, PID: w.apps[app].pid}, Start: start}
	for at := start; !at.After(end); at = at.Add(100 * time.Millisecond) {
		ser.Samples = append(ser.Samples, sampler.Sample{
			At: at, CPU: time.Duration(cores * float64(at.Sub(start))), RSSBytes: w.rssMB * results.BytesPerMB,
		})
	}
	return ser
}

func (w *world) Prime(_ context.Context, app string, _ *scenario.Workload, opts load.Options) error {
	w.primes = append(w.primes, opts.Name)
	return nil
}

func (w *world) Statements(context.Context) (uint64, error) { return w.statements, nil }

func (w *world) VacancyCount(context.Context) int64 { return -1 }

func (w *world) CleanupWrites(_ context.Context, _ *scenario.Workload, tag string, _ int64) error {
	w.cleanups = append(w.cleanups, tag)
	return nil
}

// attacksOn are the rates of the attacks whose names start with prefix,
// in order.
func (w *world) attacksOn(prefix string) []float64 {
	var rates []float64
	for _, a := range w.attacks {
		if strings.HasPrefix(a.Name, prefix) {
			rates = append(rates, a.Rate)
		}
	}
	return rates
}

// served is a window of d at rate in which every request succeeded, p99
// within p99 and the median a quarter of it.
func served(rate float64, d time.Duration, p99 time.Duration) load.Summary {
	n := uint64(rate * d.Seconds())
	return load.Summary{
		Requests: n, Successes: n, AchievedRate: rate, Throughput: rate, SuccessRatio: 1,
		StatusCodes: map[string]int{"200": int(n)}, Errors: []string{},
		LatencyMean: p99 / 3, P50: p99 / 4, P90: p99 / 2, P95: p99 * 3 / 4, P99: p99, LatencyMax: p99 * 2,
	}
}

// refusedSummary is a window of d at rate in which the app answered
// nothing: every connection was refused.
func refusedSummary(rate float64, d time.Duration) load.Summary {
	n := uint64(rate * d.Seconds())
	return load.Summary{
		Requests: n, AchievedRate: rate,
		StatusCodes: map[string]int{"0": int(n)}, Errors: []string{refused.Error()},
	}
}

// testConfig is a run of scenarios on apps with no pauses: cool-downs,
// warm-ups and priming off, 1 s windows, the default SLO and a capacity
// search's default ramp.
func testConfig(scenarios, apps []string) config.Config {
	rates := map[string]map[string]float64{"light": {}}
	for _, sc := range scenarios {
		rates["light"][sc] = 100
	}
	return config.Config{
		Profiles: []string{"light"}, Scenarios: scenarios, Apps: apps, Rates: rates, Repeat: 1,
		Duration: time.Second, Timeout: time.Second, MaxConnections: 10,
		SLOP99: results.DefaultSLOP99,
		Capacity: config.CapacityOptions{
			Search: true, Start: 100, Max: 4000, Precision: 0.05, ProbeDuration: time.Second,
		},
	}
}

// phases are the phases of a test's run over w, with the console's and
// the notes' output.
type phases struct {
	out   *bytes.Buffer
	notes *notebook
	m     *measurer
}

// newPhases returns the measurer of a run of cfg over w, writing its files
// to a folder of the test's.
func newPhases(t *testing.T, cfg config.Config, w *world) *phases {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{results.RawDir, results.SamplesDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := &phases{out: &bytes.Buffer{}, notes: &notebook{}}
	con := newConsole(p.out, cfg.Apps)
	p.m = &measurer{cfg: cfg, runID: "test", dir: dir, con: con, notes: p.notes, apps: w, load: w, db: w}
	return p
}

// profiles is the fixed-profile phase of the run, given what validation
// found.
func (p *phases) profiles(valid validity) *fixedProfiles {
	return &fixedProfiles{cfg: p.m.cfg, con: p.m.con, notes: p.notes, valid: valid, m: p.m}
}

// search is the capacity phase of the run on a machine of two cores,
// given what validation found.
func (p *phases) search(valid validity) *capacitySearch {
	w := p.m.apps.(*world)
	return &capacitySearch{cfg: p.m.cfg, con: p.m.con, notes: p.notes, valid: valid,
		apps: w, load: w, db: w, m: p.m, runID: "test", cores: 2}
}

// hasNote reports whether a note holds every one of parts.
func (p *phases) hasNote(parts ...string) bool {
	return slices.ContainsFunc(p.notes.notes, func(n string) bool {
		for _, part := range parts {
			if !strings.Contains(n, part) {
				return false
			}
		}
		return true
	})
}
