package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
)

// targetPostgres names the sampler's PostgreSQL series.
const targetPostgres = "postgres"

// DBSampleInterval is the shortest interval at which PostgreSQL is sampled.
// The server is a tree of processes — a backend per pooled connection of
// every app, some sixty in all — and reading all of them ten times a second
// costs several percent of a core, far above the sampler's 1% budget. Its
// CPU is only reported as means over a window, which one sample a second
// serves as well.
const DBSampleInterval = time.Second

// selfUsage is the runner's own cost over one attack, read from getrusage
// and /proc/self rather than sampled, so it adds nothing to the sampler's
// cost.
type selfUsage struct {
	cpu, wall        time.Duration
	rssStart, rssEnd uint64 // bytes
}

// job is one measured run: a profile, scenario, app and repeat.
type job struct {
	profile, scenario, app string
	repeat                 int // 1-based
}

// plan lists the runs in order: profiles, then scenarios, then repeats;
// within each block the apps take turns going first, so none is always
// measured on a machine that has just cooled down (or just warmed up).
func plan(profiles, scenarios, apps []string, repeat int) []job {
	var jobs []job
	block := 0
	for _, p := range profiles {
		for _, s := range scenarios {
			for rep := 1; rep <= repeat; rep++ {
				for i := range apps {
					jobs = append(jobs, job{p, s, apps[(block+i)%len(apps)], rep})
				}
				block++
			}
		}
	}
	return jobs
}

// measureAll runs every job and folds repeats into run.Results, in the
// order of profiles, scenarios and apps as configured.
func (r *runner) measureAll(ctx context.Context, run *results.Run) {
	jobs := plan(r.cfg.Profiles, r.cfg.Scenarios, r.cfg.Apps, r.cfg.Repeat)
	perRun := r.cfg.Warmup + r.cfg.Duration
	measured := 0
	for _, j := range jobs {
		if r.valid[[2]string{j.scenario, j.app}] == nil {
			measured++
		}
	}
	r.con.printf("Measuring %d run(s) of %s each, about %s in all.\n", measured, perRun, round(remaining(measured, perRun, r.cfg.Cooldown)))

	reps := map[job][]results.Result{}
	done := 0
	for _, j := range jobs {
		key := job{j.profile, j.scenario, j.app, 0}
		var res results.Result
		switch verr := r.valid[[2]string{j.scenario, j.app}]; {
		case verr != nil:
			res = r.blank(j, results.VerdictFailed, "validation failed: "+verr.Error())
		case ctx.Err() != nil:
			res = r.blank(j, results.VerdictSkipped, "interrupted before this run")
		default:
			if done > 0 && r.cfg.Cooldown > 0 {
				select {
				case <-time.After(r.cfg.Cooldown):
				case <-ctx.Done():
				}
			}
			if ctx.Err() != nil {
				res = r.blank(j, results.VerdictSkipped, "interrupted before this run")
				break
			}
			done++
			left := remaining(measured-done, perRun, r.cfg.Cooldown)
			if done < measured {
				left += r.cfg.Cooldown
			}
			res = r.measure(ctx, j, fmt.Sprintf("[%d/%d]", done, measured), left)
			r.con.printf("[%d/%d] %-6s %-10s %-8s %s\n", done, measured, j.profile, j.scenario, j.app, oneLine(res))
		}
		reps[key] = append(reps[key], res)
	}
	for _, p := range r.cfg.Profiles {
		for _, s := range r.cfg.Scenarios {
			for _, a := range r.cfg.Apps {
				run.Results = append(run.Results, Fold(reps[job{p, s, a, 0}]))
			}
		}
	}
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
func (r *runner) blank(j job, verdict, reason string) results.Result {
	return results.Result{
		Profile: j.profile, Scenario: j.scenario, App: j.app,
		Verdict: verdict, Reason: reason,
		TargetRate:  r.cfg.Rates[j.profile][j.scenario],
		StatusCodes: map[string]int{},
		Errors:      []string{},
	}
}

// fileBase names a run's files.
func (r *runner) fileBase(j job) string {
	base := fmt.Sprintf("%s-%s-%s", j.profile, j.scenario, j.app)
	if r.cfg.Repeat > 1 {
		base += fmt.Sprintf("-r%d", j.repeat)
	}
	return base
}

// measure runs one job: log in, attack while sampling, count statements,
// remove what a write left, and turn it all into a Result.
func (r *runner) measure(ctx context.Context, j job, label string, left time.Duration) results.Result {
	u := r.apps[j.app]
	rate := r.cfg.Rates[j.profile][j.scenario]
	res := r.blank(j, results.VerdictFailed, "")
	fail := func(err error) results.Result {
		res.Reason = err.Error()
		return res
	}
	// Work that must finish even after Ctrl-C: cleanup and counting.
	bg := context.WithoutCancel(ctx)

	session, err := r.login(ctx, u)
	if err != nil {
		return fail(err)
	}
	tag := fmt.Sprintf("crudbench %s %s/%s/%s/%d", r.runID, j.profile, j.scenario, j.app, j.repeat)
	wl, err := scenario.NewWorkload(session, j.scenario, tag)
	if err != nil {
		return fail(err)
	}
	writes := j.scenario == scenario.Write || j.scenario == scenario.Mixed
	var vacanciesBefore int64 = -1
	if writes && r.probe != nil {
		if n, err := r.probe.CountVacancies(bg); err == nil {
			vacanciesBefore = n
		}
	}

	base := r.fileBase(j)
	res.RawFile = filepath.ToSlash(filepath.Join(RawDir, base+".bin"))
	res.SamplesFile = filepath.ToSlash(filepath.Join(SamplesDir, base+".csv"))
	raw, err := os.Create(filepath.Join(r.dir, res.RawFile))
	if err != nil {
		return fail(err)
	}
	defer raw.Close()

	var samplers []*sampler.Sampler
	if u.pid > 0 {
		samplers = append(samplers, sampler.New(r.cfg.SampleInterval, sampler.Target{Name: j.app, PID: u.pid}))
	}
	if r.dbPID > 0 {
		samplers = append(samplers, sampler.New(max(r.cfg.SampleInterval, DBSampleInterval),
			sampler.Target{Name: targetPostgres, PID: r.dbPID, Tree: true}))
	}

	opts := load.Options{
		Name:           fmt.Sprintf("%s/%s/%s", j.profile, j.scenario, j.app),
		Rate:           rate,
		Warmup:         r.cfg.Warmup,
		Duration:       r.cfg.Duration,
		Timeout:        r.cfg.Timeout,
		MaxConnections: r.cfg.MaxConnections,
		Observe:        wl.Observe,
		Raw:            raw,
		Progress: func(p load.Progress) {
			phase := "measuring"
			if p.Warmup {
				phase = "warming up"
			}
			r.con.status(fmt.Sprintf("%s %s %s %s  %s %s/%s  %s left  %.1f req/s  %d errors",
				label, j.profile, j.scenario, j.app, phase, round(p.Elapsed), round(p.Total),
				round(left+p.Total-p.Elapsed), p.Rate, p.Errors))
		},
	}
	// Statements are counted over the whole attack, warm-up included, and
	// divided by all its successful requests: no request straddles the
	// count's bounds, so the ratio is exact.
	var before uint64
	beforeErr := errors.New("pg_stat_statements unavailable")
	if r.statementsOK {
		before, beforeErr = r.probe.Statements(bg)
	}
	self := selfUsage{rssStart: selfRSS()}
	cpu0, wall0 := cpuTime(), time.Now()
	for _, smp := range samplers {
		smp.Start()
	}
	out, attackErr := load.Attack(ctx, wl.Targeter(), opts)
	series := map[string]sampler.Series{}
	for _, smp := range samplers {
		maps.Copy(series, smp.Stop())
		// The samplers run side by side: their costs add up.
		r.overheadCPU += smp.Overhead() * (r.cfg.Warmup + r.cfg.Duration).Seconds()
	}
	self.cpu, self.wall, self.rssEnd = cpuTime()-cpu0, time.Since(wall0), selfRSS()
	r.self = append(r.self, self)
	after, afterErr := uint64(0), error(nil)
	if r.statementsOK {
		after, afterErr = r.probe.Statements(bg)
	}
	r.overheadWall += (r.cfg.Warmup + r.cfg.Duration).Seconds()
	if out != nil {
		r.sent += out.Sent
	}

	if writes {
		if err := r.cleanupWrites(bg, wl, tag, vacanciesBefore); err != nil {
			r.note(fmt.Sprintf("%s %s %s: %v", j.profile, j.scenario, j.app, err))
			res.Errors = append(res.Errors, err.Error())
		}
	}
	if err := r.writeSamples(series, j.app, res.SamplesFile); err != nil {
		r.note(fmt.Sprintf("samples of %s: %v", base, err))
	}
	if out == nil {
		return fail(attackErr)
	}

	s := out.Summary
	res.AchievedRate = s.AchievedRate
	res.Throughput = s.Throughput
	res.Requests = s.Requests
	res.SuccessRatio = s.SuccessRatio
	res.StatusCodes = s.StatusCodes
	res.Errors = append(s.Errors, res.Errors...)
	res.Latency = results.Latency{
		Mean: ms(s.LatencyMean), P50: ms(s.P50), P90: ms(s.P90), P95: ms(s.P95), P99: ms(s.P99), Max: ms(s.LatencyMax),
	}
	res.BytesIn, res.BytesOut = s.BytesInMean, s.BytesOutMean

	from, to := out.Window.Start, out.Window.End
	if ser, ok := series[j.app]; ok {
		res.AppCost = processCost(ser.Window(from, to), s.Successes, u.pid)
	}
	if ser, ok := series[targetPostgres]; ok {
		// Sampled once a second, PostgreSQL may have a single sample in a
		// short window: its CPU rate is taken over the samples around the
		// window and applied to the window's length.
		st := ser.Window(ser.Around(from, to))
		if st.Samples >= 2 {
			res.DB.CPUAvailable = true
			res.DB.CPUMean = st.CPUMean
			res.DB.CPUMsPerRequest = perRequest(st.CPUMean*to.Sub(from).Seconds()*1000, s.Successes)
			res.DB.RSSMeanMB = float64(st.RSSMeanBytes) / results.BytesPerMB
		}
	}
	if r.statementsOK && beforeErr == nil && afterErr == nil && after >= before {
		res.DB.Available = true
		res.DB.StatementsPerRequest = perRequest(float64(after-before), out.Succeeded)
	}

	switch {
	case out.Interrupted:
		res.Verdict, res.Reason = results.VerdictSkipped, "interrupted during the run: the partial window is not comparable"
	case attackErr != nil:
		res.Verdict, res.Reason = results.VerdictFailed, attackErr.Error()
	default:
		res.Verdict, res.Reason = Verdict(rate, res.Throughput, res.SuccessRatio)
	}
	if res.Errors == nil {
		res.Errors = []string{}
	}
	return res
}

// cleanupWrites deletes every row a write run left alive, including rows
// whose create answer never arrived (found by title in the database), and
// checks the vacancy count is back where it was.
func (r *runner) cleanupWrites(ctx context.Context, wl *scenario.Workload, tag string, before int64) error {
	var extra []int64
	if r.probe != nil {
		ids, err := r.probe.VacanciesTitled(ctx, tag+" ")
		if err != nil {
			return fmt.Errorf("find rows left by the run: %w", err)
		}
		extra = ids
	}
	if _, err := wl.Cleanup(ctx, r.client, extra...); err != nil {
		return fmt.Errorf("delete rows left by the run: %w", err)
	}
	if r.probe != nil && before >= 0 {
		after, err := r.probe.CountVacancies(ctx)
		if err != nil {
			return err
		}
		if after != before {
			return fmt.Errorf("%d vacancies before the run, %d after cleanup: rows left behind", before, after)
		}
	}
	return nil
}

// writeSamples writes the app's series to name and PostgreSQL's next to it.
func (r *runner) writeSamples(series map[string]sampler.Series, app, name string) error {
	write := func(ser sampler.Series, path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := ser.WriteCSV(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	path := filepath.Join(r.dir, filepath.FromSlash(name))
	var errs []error
	if ser, ok := series[app]; ok {
		errs = append(errs, write(ser, path))
	} else {
		// Keep the file the result names, empty but for the header, so
		// the report can tell "not visible" from "lost".
		errs = append(errs, write(sampler.Series{}, path))
	}
	if ser, ok := series[targetPostgres]; ok {
		errs = append(errs, write(ser, path[:len(path)-len(".csv")]+".postgres.csv"))
	}
	return errors.Join(errs...)
}

// processCost turns a window of samples into a ProcessCost; it is not
// available without two samples to take a difference of.
func processCost(st sampler.Stats, successes uint64, pid int) results.ProcessCost {
	if st.Samples < 2 {
		return results.ProcessCost{PID: pid}
	}
	return results.ProcessCost{
		Available: true,
		PID:       pid,
		CPUMean:   st.CPUMean,
		// A reading can lack up to a scheduler tick per busy thread: over a
		// short window the busiest one-second stretch can read below the
		// window's mean, which no real peak is.
		CPUMax:          max(st.CPUMax, st.CPUMean),
		CPUMsPerRequest: perRequest(st.CPUSeconds*1000, successes),
		RSSMeanMB:       float64(st.RSSMeanBytes) / results.BytesPerMB,
		RSSMaxMB:        float64(st.RSSMaxBytes) / results.BytesPerMB,
		RSSStartMB:      float64(st.RSSStartBytes) / results.BytesPerMB,
		RSSEndMB:        float64(st.RSSEndBytes) / results.BytesPerMB,

		CPUResolutionMsPerRequest: perRequest(ms(st.CPUResolution), successes),
	}
}

// runnerCost is the load generator's own cost: CPU from getrusage over the
// whole invocation (building, seeding and validating included) as the mean,
// the busiest attack's average as the peak, CPU-ms per request over the
// attacks only (what generating the load costs), and memory (VmRSS) at the
// start and end of every attack, the peak from getrusage.
func (r *runner) runnerCost(cpu, wall time.Duration) results.ProcessCost {
	c := results.ProcessCost{Available: true, PID: os.Getpid()}
	if wall > 0 {
		c.CPUMean = cpu.Seconds() / wall.Seconds()
	}
	var attackCPU time.Duration
	for _, u := range r.self {
		attackCPU += u.cpu
	}
	c.CPUMsPerRequest = perRequest(float64(attackCPU)/float64(time.Millisecond), r.sent)
	var rssSum float64
	for _, u := range r.self {
		if u.wall > 0 {
			c.CPUMax = max(c.CPUMax, u.cpu.Seconds()/u.wall.Seconds())
		}
		rssSum += float64(u.rssStart+u.rssEnd) / 2
	}
	if n := len(r.self); n > 0 {
		c.RSSMeanMB = rssSum / float64(n) / results.BytesPerMB
		c.RSSStartMB = float64(r.self[0].rssStart) / results.BytesPerMB
		c.RSSEndMB = float64(r.self[n-1].rssEnd) / results.BytesPerMB
	} else {
		c.RSSStartMB = float64(selfRSS()) / results.BytesPerMB
		c.RSSEndMB, c.RSSMeanMB = c.RSSStartMB, c.RSSStartMB
	}
	c.RSSMaxMB = max(float64(peakRSS())/results.BytesPerMB, c.RSSStartMB, c.RSSEndMB)
	c.CPUMax = max(c.CPUMax, c.CPUMean)
	return c
}

func perRequest(total float64, successes uint64) float64 {
	if successes == 0 {
		return 0
	}
	return total / float64(successes)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
