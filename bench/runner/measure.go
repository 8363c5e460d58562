package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
)

// measureAll runs every load.Job and folds repeats into run.Results, in the
// order of profiles, scenarios and apps as configured.
func (r *runner) measureAll(ctx context.Context, run *results.Run) {
	jobs := load.Plan(r.cfg.Profiles, r.cfg.Scenarios, r.cfg.Apps, r.cfg.Repeat)
	if len(jobs) == 0 {
		return // -capacity without -profiles
	}
	perRun := r.cfg.Warmup + r.cfg.Duration
	measured := r.validJobs(jobs)
	r.con.printf("Measuring %d run(s) of %s each, %s; verdicts against an SLO of p99 ≤ %s.\n", measured, perRun, r.howLong(len(jobs), measured, perRun), r.cfg.SLOP99)

	reps := map[load.Job][]results.Result{}
	primed := map[[2]string]bool{}
	done := 0
	for i, j := range jobs {
		key := load.Job{Profile: j.Profile, Scenario: j.Scenario, App: j.App, Repeat: 0}
		var res results.Result
		switch verr := r.valid[[2]string{j.Scenario, j.App}]; {
		case verr != nil:
			res = r.blank(j, results.VerdictFailed, "validation failed: "+verr.Error())
		case ctx.Err() != nil:
			res = r.blank(j, results.VerdictSkipped, "interrupted before this run")
		default:
			if done > 0 {
				r.coolDown(ctx)
			}
			r.primeOnce(ctx, j, primed)
			if ctx.Err() != nil {
				res = r.blank(j, results.VerdictSkipped, "interrupted before this run")
				break
			}
			done++
			left := remaining(measured-done, perRun, r.cfg.Cooldown)
			if done < measured {
				left += r.cfg.Cooldown
			}
			res = r.measure(ctx, j, r.cfg.Rates[j.Profile][j.Scenario], fmt.Sprintf("[%d/%d]", done, measured), left, i)
			r.con.printf("[%d/%d] %-6s %-10s %s %s\n", done, measured, j.Profile, j.Scenario, r.appColumn(j.App), oneLine(res))
		}
		reps[key] = append(reps[key], res)
	}
	for _, p := range r.cfg.Profiles {
		for _, s := range r.cfg.Scenarios {
			for _, a := range r.cfg.Apps {
				run.Results = append(run.Results, results.Fold(reps[load.Job{Profile: p, Scenario: s, App: a, Repeat: 0}], r.cfg.SLOP99))
			}
		}
	}
}

// primings counts the priming passes measureAll runs: one per scenario
// and app that passed validation.
func (r *runner) primings() int {
	n := 0
	for _, sc := range r.cfg.Scenarios {
		for _, a := range r.cfg.Apps {
			if r.valid[[2]string{sc, a}] == nil {
				n++
			}
		}
	}
	return n
}

// primeOnce primes j's app with j's scenario (prime) before its first
// measured run, then cools down; primed records the pairs done. A sharded
// run is not primed: its runs keep the slots every shard shares.
func (r *runner) primeOnce(ctx context.Context, j load.Job, primed map[[2]string]bool) {
	key := [2]string{j.Scenario, j.App}
	if r.cfg.Shard != nil || r.cfg.Prime <= 0 || primed[key] {
		return
	}
	primed[key] = true
	if err := r.prime(ctx, j, r.cfg.Rates[j.Profile][j.Scenario]); err != nil {
		r.note(fmt.Sprintf("priming %s with %s: %v", j.App, j.Scenario, err))
	}
	r.coolDown(ctx)
}

// coolDown pauses between runs, unless the run is sharded: then the
// cool-down is part of every run's slot, and measure waits for the slot.
func (r *runner) coolDown(ctx context.Context) {
	if r.cfg.Shard != nil || r.cfg.Cooldown <= 0 {
		return
	}
	select {
	case <-time.After(r.cfg.Cooldown):
	case <-ctx.Done():
	}
}

// validJobs counts the jobs whose scenario passed validation on their app.
func (r *runner) validJobs(jobs []load.Job) int {
	n := 0
	for _, j := range jobs {
		if r.valid[[2]string{j.Scenario, j.App}] == nil {
			n++
		}
	}
	return n
}

// howLong says how long the runs take: about remaining's estimate, or,
// for a shard, when the last of the plan's jobs slots ends (every slot is
// waited for, whether this shard measures its run or not).
func (r *runner) howLong(jobs, measured int, perRun time.Duration) string {
	if r.cfg.Shard == nil {
		var priming time.Duration
		if r.cfg.Prime > 0 {
			priming = time.Duration(r.primings()) * (r.cfg.Prime + r.cfg.Cooldown)
		}
		return "about " + round(remaining(measured, perRun, r.cfg.Cooldown)+priming) + " in all, priming included"
	}
	return "in slots of " + r.cfg.Slots().Length().String() + " ending by " + r.cfg.Slots().At(jobs).Local().Format(time.TimeOnly)
}

// remaining estimates the time n more runs take, cool-downs between them
// included (logins and cleanup are not counted: they are short).
func remaining(n int, perRun, cooldown time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(n)*perRun + time.Duration(n-1)*cooldown
}

// oneLine is the console line of a finished run.
func oneLine(res results.Result) string {
	line := fmt.Sprintf("%-9s target %6.1f/s  achieved %6.1f/s  success %6.2f%%  p50 %7.2f ms  p99 %7.2f ms",
		res.Verdict, res.TargetRate, res.AchievedRate, 100*res.SuccessRatio, res.Latency.P50, res.Latency.P99)
	if res.Reason != "" {
		line += "  (" + res.Reason + ")"
	}
	return line
}

// blank is the result of a run that was not measured.
func (r *runner) blank(j load.Job, verdict, reason string) results.Result {
	return results.Result{
		Profile: j.Profile, Scenario: j.Scenario, App: j.App,
		Verdict: verdict, Reason: reason,
		TargetRate:  r.share(r.cfg.Rates[j.Profile][j.Scenario]),
		StatusCodes: map[string]int{},
		Errors:      []string{},
	}
}

// measure runs one load.Job at rate, the plan's run number slot: log in, wait
// for the run's slot when sharded, attack while sampling, count
// statements, remove what a write left, and turn it all into a Result.
func (r *runner) measure(ctx context.Context, j load.Job, rate float64, label string, left time.Duration, slot int) results.Result {
	u := r.apps[j.App]
	res := r.blank(j, results.VerdictFailed, "")
	res.TargetRate = r.share(rate)
	fail := func(err error) results.Result {
		res.Reason = err.Error()
		return res
	}
	// Work that must finish even after Ctrl-C: cleanup and counting.
	bg := context.WithoutCancel(ctx)

	wl, tag, err := r.workload(ctx, j, u)
	if err != nil {
		return fail(err)
	}
	var vacanciesBefore int64 = -1
	if writesRows(j.Scenario) {
		vacanciesBefore = r.vacancyCount(bg)
	}
	if skip := r.awaitSlot(ctx, slot); skip != "" {
		return r.blank(j, results.VerdictSkipped, skip)
	}

	raw, err := r.createFiles(&res, j)
	if err != nil {
		return fail(err)
	}
	defer raw.Close()

	src := r.sourcesFor(j.App)
	opts := r.attackOptions(j, rate, wl, raw, r.progress(j, label, left))
	opts.Shard = r.slotShard(slot)
	prof := r.profileFor(ctx, j, &opts)
	// Statements are counted over the whole attack, warm-up included, and
	// divided by all its successful requests: no request straddles the
	// count's bounds, so the ratio is exact.
	before, beforeErr := r.statements(bg)
	out, series, _, attackErr := r.attack(ctx, j.App, wl, opts, src)
	after, afterErr := r.statements(bg)

	r.removeWrites(bg, j, wl, tag, vacanciesBefore, &res)
	if err := cost.WriteSamples(r.dir, series, src, res.SamplesFile); err != nil {
		r.note(fmt.Sprintf("samples of %s: %v", r.fileBase(j), err))
	}
	if out == nil {
		return fail(attackErr)
	}

	out.Summary.Record(&res)
	r.noteUnread(fmt.Sprintf("%s %s %s", j.Profile, j.Scenario, j.App), cost.Take(&res, out, series, src))
	r.notePool(j.App, res.AppCost)
	res.CPUProfile = prof.result()
	cost.TakeStatements(&res, out, after-before, beforeErr == nil && afterErr == nil && after >= before)
	judge(&res, out, attackErr, r.cfg.SLOP99)
	return res
}

// removeWrites removes the rows run j wrote, when its scenario writes,
// and checks the vacancies are as many as before (vacanciesBefore); a
// failure is noted and listed among res's errors.
func (r *runner) removeWrites(ctx context.Context, j load.Job, wl *scenario.Workload, tag string, vacanciesBefore int64, res *results.Result) {
	if !writesRows(j.Scenario) {
		return
	}
	if err := r.cleanupWrites(ctx, wl, tag, vacanciesBefore); err != nil {
		r.note(fmt.Sprintf("%s %s %s: %v", j.Profile, j.Scenario, j.App, err))
		res.Errors = append(res.Errors, err.Error())
	}
}

// createFiles names the files of run j in res and creates its raw
// results' file, which the attack writes.
func (r *runner) createFiles(res *results.Result, j load.Job) (*os.File, error) {
	base := r.fileBase(j)
	res.RawFile = results.RawFile(base)
	res.SamplesFile = results.SamplesFile(base)
	return os.Create(filepath.Join(r.dir, filepath.FromSlash(res.RawFile)))
}

// workload logs in to app u and returns the stream of requests of run j,
// with the tag that starts the titles of the rows it writes: a shard's
// names the shard, so that each shard removes only its own rows.
func (r *runner) workload(ctx context.Context, j load.Job, u *appUnderTest) (*scenario.Workload, string, error) {
	session, err := r.login(ctx, u)
	if err != nil {
		return nil, "", err
	}
	tag := fmt.Sprintf("crudbench %s %s/%s/%s/%d", r.runID, j.Profile, j.Scenario, j.App, j.Repeat)
	if j.Try > 0 {
		tag += fmt.Sprintf("/try%d", j.Try)
	}
	if s := r.cfg.Shard; s != nil {
		tag += fmt.Sprintf(" shard %d/%d", s.Index, s.Count)
	}
	wl, err := scenario.NewWorkload(session, j.Scenario, tag)
	if err == nil && r.cfg.Shard != nil {
		wl.Share(r.cfg.Shard.Index, r.cfg.Shard.Count)
	}
	return wl, tag, err
}

// errNoStatements stands for a statement count that cannot be read, so a
// run without pg_stat_statements reports no statements per request.
var errNoStatements = errors.New("pg_stat_statements unavailable")

// statements reads PostgreSQL's running count of statements executed.
func (r *runner) statements(ctx context.Context) (uint64, error) {
	if !r.statementsOK {
		return 0, errNoStatements
	}
	return r.probe.Statements(ctx)
}

// fileBase names a run's files: a repeat's by its number (a capacity
// confirmation's by its search's, -sN), a capacity confirmation after one
// that missed by its try.
func (r *runner) fileBase(j load.Job) string { return fileBase(j, r.cfg.Repeat) }

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
