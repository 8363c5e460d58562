package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/cost"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
)

// measurer measures one full-length run at a time through one path, the
// fixed profiles' runs and the capacity search's confirmations alike:
// each logs in, waits for its slot when the run is sharded, attacks while
// the app, PostgreSQL, the runner and the machine are sampled, counts
// SQL statements, removes what a write left, writes its raw results and
// samples, and becomes a Result.
type measurer struct {
	cfg config.Config
	// runID tags the rows the runs write; dir is the results folder,
	// which holds the raw, samples and profiles folders.
	runID, dir string
	con        *console
	notes      *notebook
	apps       fleet
	load       attacker
	db         database
}

// oneLine is the console line of a finished run.
func oneLine(res results.Result) string {
	rates := fmt.Sprintf("target %6.1f/s  achieved %6.1f/s", res.TargetRate, res.AchievedRate)
	if res.TargetRate == 0 { // a closed loop's: it has no target
		rates = fmt.Sprintf("served %6.1f/s", res.Throughput)
	}
	line := fmt.Sprintf("%-9s %s  success %6.2f%%  p50 %7.2f ms  p99 %7.2f ms",
		res.Verdict, rates, 100*res.SuccessRatio, res.Latency.P50, res.Latency.P99)
	if res.Reason != "" {
		line += "  (" + res.Reason + ")"
	}
	return line
}

// blank is the result of a run that was not measured.
func (m *measurer) blank(j load.Job, verdict, reason string) results.Result {
	return results.Result{
		Profile: j.Profile, Scenario: j.Scenario, App: j.App,
		Verdict: verdict, Reason: reason,
		TargetRate:  m.target(m.cfg.Rates[j.Profile][j.Scenario]),
		StatusCodes: map[string]int{},
		Errors:      []string{},
	}
}

// target is the target rate of a run at rate: its share of it when the run
// is sharded, and none (0) in a closed loop, whose clients send as fast as
// the app answers.
func (m *measurer) target(rate float64) float64 {
	if m.cfg.ClosedLoop() {
		return 0
	}
	return m.share(rate)
}

// measure runs one load.Job at rate, the plan's run number slot: log in, wait
// for the run's slot when sharded, attack while sampling, count
// statements, remove what a write left, and turn it all into a Result.
func (m *measurer) measure(ctx context.Context, j load.Job, rate float64, label string, left time.Duration, slot int) results.Result {
	u := m.apps.App(j.App)
	res := m.blank(j, results.VerdictFailed, "")
	res.TargetRate = m.target(rate)
	fail := func(err error) results.Result {
		res.Reason = err.Error()
		return res
	}
	// Work that must finish even after Ctrl-C: cleanup and counting.
	bg := context.WithoutCancel(ctx)

	wl, tag, err := m.workload(ctx, j)
	if err != nil {
		return fail(err)
	}
	var vacanciesBefore int64 = -1
	if writesRows(j.Scenario) {
		vacanciesBefore = m.db.VacancyCount(bg)
	}
	if skip := m.awaitSlot(ctx, slot); skip != "" {
		return m.blank(j, results.VerdictSkipped, skip)
	}

	raw, err := m.createFiles(&res, j)
	if err != nil {
		return fail(err)
	}
	defer raw.Close()

	src := u.sources(j.App)
	opts := m.attackOptions(j, rate, wl, raw, m.progress(j, label, left))
	opts.Shard = m.slotShard(slot)
	prof := m.profileFor(ctx, j, &opts)
	// Statements are counted over the whole attack, warm-up included, and
	// divided by all its successful requests: no request straddles the
	// count's bounds, so the ratio is exact.
	before, beforeErr := m.db.Statements(bg)
	out, series, _, attackErr := m.load.Attack(ctx, j.App, wl, opts, src)
	after, afterErr := m.db.Statements(bg)

	m.removeWrites(bg, j, wl, tag, vacanciesBefore, &res)
	if err := cost.WriteSamples(m.dir, series, src, res.SamplesFile); err != nil {
		m.notes.note(fmt.Sprintf("samples of %s: %v", m.fileBase(j), err))
	}
	if out == nil {
		return fail(attackErr)
	}

	out.Summary.Record(&res)
	m.notes.unread(fmt.Sprintf("%s %s %s", j.Profile, j.Scenario, j.App), cost.Take(&res, out, series, src))
	m.notes.pool(j.App, u.metricsURLs, res.AppCost)
	res.CPUProfile = prof.result()
	cost.TakeStatements(&res, out, after-before, beforeErr == nil && afterErr == nil && after >= before)
	judge(&res, out, attackErr, m.cfg.SLOP99)
	return res
}

// removeWrites removes the rows run j wrote, when its scenario writes,
// and checks the vacancies are as many as before (vacanciesBefore); a
// failure is noted and listed among res's errors.
func (m *measurer) removeWrites(ctx context.Context, j load.Job, wl *scenario.Workload, tag string, vacanciesBefore int64, res *results.Result) {
	if !writesRows(j.Scenario) {
		return
	}
	if err := m.db.CleanupWrites(ctx, wl, tag, vacanciesBefore); err != nil {
		m.notes.note(fmt.Sprintf("%s %s %s: %v", j.Profile, j.Scenario, j.App, err))
		res.Errors = append(res.Errors, err.Error())
	}
}

// createFiles names the files of run j in res and creates its raw
// results' file, which the attack writes.
func (m *measurer) createFiles(res *results.Result, j load.Job) (*os.File, error) {
	base := m.fileBase(j)
	res.RawFile = results.RawFile(base)
	res.SamplesFile = results.SamplesFile(base)
	return os.Create(filepath.Join(m.dir, filepath.FromSlash(res.RawFile)))
}

// workload logs in to j's app and returns the stream of requests of run
// j, with the tag that starts the titles of the rows it writes: a shard's
// names the shard, so that each shard removes only its own rows.
func (m *measurer) workload(ctx context.Context, j load.Job) (*scenario.Workload, string, error) {
	session, err := m.apps.Login(ctx, j.App)
	if err != nil {
		return nil, "", err
	}
	tag := fmt.Sprintf("crudbench %s %s/%s/%s/%d", m.runID, j.Profile, j.Scenario, j.App, j.Repeat)
	if j.Try > 0 {
		tag += fmt.Sprintf("/try%d", j.Try)
	}
	if s := m.cfg.Shard; s != nil {
		tag += fmt.Sprintf(" shard %d/%d", s.Index, s.Count)
	}
	wl, err := scenario.NewWorkload(session, j.Scenario, tag)
	if err == nil && m.cfg.Shard != nil {
		wl.Share(m.cfg.Shard.Index, m.cfg.Shard.Count)
	}
	return wl, tag, err
}

// fileBase names a run's files: a repeat's by its number (a capacity
// confirmation's by its search's, -sN), a capacity confirmation after one
// that missed by its try.
func (m *measurer) fileBase(j load.Job) string { return fileBase(j, m.cfg.Repeat) }

// fileBase names the files of run j of a run told to repeat each run (and
// capacity search) repeat times.
func fileBase(j load.Job, repeat int) string {
	base := fmt.Sprintf("%s-%s-%s", j.Profile, j.Scenario, j.App)
	switch {
	case j.Profile != capacityProfile:
		if repeat > 1 {
			base += fmt.Sprintf("-r%d", j.Repeat)
		}
		return base
	case repeat > 1:
		base += fmt.Sprintf("-s%d", j.Repeat)
	}
	if j.Try > 1 {
		base += fmt.Sprintf("-try%d", j.Try)
	}
	return base
}

// judge gives a measured run its verdict: a window cut short by Ctrl-C is
// not comparable, an attack that ended in an error failed, and anything
// else is judged on its numbers against the SLO.
func judge(res *results.Result, out *load.Outcome, attackErr error, slo time.Duration) {
	switch {
	case out.Interrupted:
		res.Verdict, res.Reason = results.VerdictSkipped, "interrupted during the run: the partial window is not comparable"
	case attackErr != nil:
		res.Verdict, res.Reason = results.VerdictFailed, attackErr.Error()
	default:
		res.Judge(slo)
	}
}
