package runner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/load"
	"crudbench/bench/results"
)

// capacityProfile names the confirmation runs of the capacity search among
// the profiles of results and files.
const capacityProfile = "capacity"

// capacityAll searches every (scenario, app) for its capacity, -repeat
// times, the apps taking turns going first as load.Plan orders the
// measured runs, and records the searches in run.Capacities in the
// configured order, the repeats of each folded into their median
// (results.FoldCapacities).
func (r *runner) capacityAll(ctx context.Context, run *results.Run) {
	if !r.cfg.Capacity.Search {
		return
	}
	jobs := load.Plan([]string{capacityProfile}, r.cfg.Scenarios, r.cfg.Apps, r.cfg.Repeat)
	n := r.validJobs(jobs)
	probes := r.maxProbes()
	r.con.printf("Capacity search of %d scenario/app pair(s)%s: at most %d probes of %s each, then up to %d confirmations of %s: at most about %s in all.\n",
		len(r.cfg.Scenarios)*len(r.cfg.Apps), searchesText(r.cfg.Repeat), probes, r.cfg.Capacity.ProbeWarmup+r.cfg.Capacity.ProbeDuration, capacity.MaxConfirmations, r.cfg.Warmup+r.cfg.Duration, round(time.Duration(n)*r.searchTime(probes)))
	found := map[load.Job][]results.Capacity{}
	for i, j := range jobs {
		label := fmt.Sprintf("[capacity %d/%d]", i+1, len(jobs))
		key := j
		key.Repeat = 0
		found[key] = append(found[key], r.repeatedSearch(ctx, j, label))
	}
	var searched []results.Capacity
	for _, s := range r.cfg.Scenarios {
		for _, a := range r.cfg.Apps {
			each := found[load.Job{Profile: capacityProfile, Scenario: s, App: a}]
			searched = append(searched, each...)
			run.Capacities = append(run.Capacities, results.FoldCapacities(each))
		}
	}
	if note := results.CapacityRepeatNote(r.cfg.Repeat, r.attachedApps()); note != "" {
		r.note(note)
	}
	if other, named := otherLoad(searched, r.capacityConfig); capacity.Shown(other) {
		who := ""
		if len(named) > 0 {
			who = " (in that probe: " + capacity.OthersText(named) + ")"
		}
		r.note(fmt.Sprintf("The machine was busy with other work during the capacity search: processes other than the app, PostgreSQL and the runner used up to %.2f cores in a probe%s. The capacities are what was left to the apps, not what the machine can do.", other, who))
	}
	replicas := map[string]int{}
	for _, a := range r.cfg.Apps {
		replicas[a] = len(r.cfg.MetricsURLs[a])
	}
	for _, n := range results.CapacityNotes(r.cfg.Mode() == "attach", runtime.NumCPU(), r.isolatedCores(), r.cfg.Apps, replicas) {
		r.note(n)
	}
}

// searchesText says, for the console, how many searches each pair gets.
func searchesText(repeat int) string {
	if repeat <= 1 {
		return ""
	}
	return fmt.Sprintf(", %d searches each on a freshly started app", repeat)
}

// attachedApps are the measured apps the runner did not start, and so
// cannot start afresh.
func (r *runner) attachedApps() []string {
	var names []string
	for _, a := range r.cfg.Apps {
		if u := r.apps[a]; u != nil && u.start == nil {
			names = append(names, a)
		}
	}
	return names
}

// repeatedSearch is the search of job j, its Repeat the search's number:
// with -repeat above 1 it starts the app afresh first when the runner
// started it — a young process's tail is part of its capacity, and a
// search on a process the one before warmed would hide it — and records
// the process it measured.
func (r *runner) repeatedSearch(ctx context.Context, j load.Job, label string) results.Capacity {
	u := r.apps[j.App]
	if r.cfg.Repeat > 1 && u != nil && u.start != nil && r.valid[[2]string{j.Scenario, j.App}] == nil && ctx.Err() == nil {
		pid, err := r.restartApp(ctx, j.App)
		if err != nil {
			c := results.Capacity{Scenario: j.Scenario, App: j.App, Probes: []results.Probe{}, Search: j.Repeat,
				Status: results.CapacityFailed, Reason: "starting the app afresh: " + err.Error()}
			r.con.printf("%s %-10s %s search %d: %s\n", label, j.Scenario, r.appColumn(j.App), j.Repeat, c.Reason)
			return c
		}
		r.con.printf("%s %-10s %s search %d of %d: restarted the app (pid %d)\n", label, j.Scenario, r.appColumn(j.App), j.Repeat, r.cfg.Repeat, pid)
	}
	c := r.capacityOf(ctx, j, label)
	if r.cfg.Repeat > 1 {
		c.Search = j.Repeat
	}
	if u != nil && u.proc != nil {
		c.PID = u.proc.PID
	} else if u != nil {
		c.PID = u.pid
	}
	return c
}

// otherLoad is the most CPU (cores) the machine's other processes used
// in any probe whose every CPU figure was seen — the machine less the app,
// PostgreSQL and the runner — and the processes that probe named; config
// is each app's search configuration.
func otherLoad(caps []results.Capacity, config func(app string) capacity.Config) (most float64, named []results.ProcessShare) {
	for _, c := range caps {
		for _, p := range c.Probes {
			if other, ok := capacity.OtherCPU(config(c.App), p); ok && other > most {
				most, named = other, p.Others
			}
		}
	}
	return most, named
}

// capacityConfig is the configuration of app's search: the SLO, the ramp,
// the machine's cores, the app's (its own set with -cpus, else all of
// them: an app without GOMAXPROCS may use every one) and its replicas.
func (r *runner) capacityConfig(app string) capacity.Config {
	o := r.cfg.Capacity
	return capacity.Config{
		SLO:   results.CapacitySLO(r.cfg.SLOP99),
		Start: o.Start, Growth: capacity.Growth, Max: o.Max, Precision: o.Precision,
		Cores: runtime.NumCPU(), AppCores: r.appCores(), RestCores: r.restCores(),
		AppReplicas: len(r.cfg.MetricsURLs[app]),
		MissPause:   capacity.MissPauses * r.probePause(),
	}
}

// appCores is how many CPUs the apps may use: their own set's with
// -cpus, else the machine's.
func (r *runner) appCores() int {
	return cmp.Or(r.isolatedCores(), runtime.NumCPU())
}

// restCores is how many CPUs the throwaway PostgreSQL and the runner had
// to themselves with -cpus; zero when they shared the machine's, and with
// a DATABASE_URL server, which is not on them.
func (r *runner) restCores() int {
	if !r.cfg.CPUs.Isolated() || r.cfg.Mode() != "embedded" {
		return 0
	}
	return len(r.cfg.CPUs.Rest)
}

// isolatedCores is how many CPUs the apps had to themselves with -cpus;
// zero when they shared the machine's.
func (r *runner) isolatedCores() int { return len(r.cfg.CPUs.App) }

// maxProbes bounds the probes of one search: the ramp's steps from the
// first rate to the cap, then the bisection of a bracket one growth step
// wide down to the precision, each rate tried up to capacity.MaxTries
// times.
func (r *runner) maxProbes() int {
	o := r.cfg.Capacity
	ramp := 1 + int(math.Ceil(math.Log(o.Max/o.Start)/math.Log(capacity.Growth)))
	bisect := int(math.Ceil(math.Log2(math.Log(capacity.Growth) / math.Log1p(o.Precision))))
	return capacity.MaxTries * (ramp + max(bisect, 0))
}

// searchTime is the longest one search with its confirmations takes.
func (r *runner) searchTime(probes int) time.Duration {
	o := r.cfg.Capacity
	perProbe := o.ProbeWarmup + o.ProbeDuration + (1+capacity.MissPauses)*r.probePause()
	return time.Duration(probes)*perProbe + r.cfg.Cooldown + capacity.MaxConfirmations*(r.cfg.Cooldown+r.cfg.Warmup+r.cfg.Duration)
}

// probePause is the pause before each probe, so one probe's queue does not
// spill into the next: the cool-down, at most capacity.MaxProbePause.
func (r *runner) probePause() time.Duration {
	return min(r.cfg.Cooldown, capacity.MaxProbePause)
}

// capacityOf searches one (scenario, app): it probes, then confirms the
// rate found with a run of the full length.
func (r *runner) capacityOf(ctx context.Context, j load.Job, label string) results.Capacity {
	c := results.Capacity{Scenario: j.Scenario, App: j.App, Probes: []results.Probe{}}
	if verr := r.valid[[2]string{j.Scenario, j.App}]; verr != nil {
		c.Status, c.Reason = results.CapacityFailed, "validation failed: "+verr.Error()
		return c
	}
	if !r.pause(ctx, r.cfg.Cooldown) {
		c.Status, c.Reason = results.CapacitySkipped, "interrupted before this search"
		return c
	}
	session, err := r.login(ctx, r.apps[j.App])
	if err != nil {
		c.Status, c.Reason = results.CapacityFailed, err.Error()
		return c
	}
	r.con.printf("%s %-10s %s searching from %g req/s\n", label, j.Scenario, r.appColumn(j.App), r.cfg.Capacity.Start)
	pr := &prober{r: r, j: j, session: session, cfg: r.capacityConfig(j.App)}
	out, err := capacity.Search(ctx, pr.cfg, pr.probe)
	// The probes of a search cut short still count as rates measured; its
	// bracket does not.
	c.Probes = append(c.Probes, out.Probes...)
	switch {
	case ctx.Err() != nil:
		c.Status, c.Reason = results.CapacitySkipped, "interrupted during the search"
		return c
	case err != nil:
		c.Status, c.Reason = results.CapacityFailed, err.Error()
		return c
	}
	c.Status, c.Rate, c.Upper, c.StopReason, c.StopDetail = out.Status, out.Rate, out.Upper, out.StopReason, out.StopDetail
	r.con.printf("%s %-10s %s %s\n", label, j.Scenario, r.appColumn(j.App), capacityLine(c))
	if c.Rate > 0 {
		r.confirm(ctx, j, label, &c)
	}
	return c
}

// confirm measures full-length runs through the path of the fixed
// profiles (each its own raw and samples files), at the capacity found
// and, while one misses the SLO, a step lower (capacity.Confirm); it
// records the rate the capacity stands on, whether its run held, and the
// capacity per core.
func (r *runner) confirm(ctx context.Context, j load.Job, label string, c *results.Capacity) {
	got := capacity.Confirm(ctx, r.capacityConfig(j.App).SLO, c.Rate, func(ctx context.Context, rate float64, try int) results.Result {
		if !r.pause(ctx, r.cfg.Cooldown) {
			return r.blank(j, results.VerdictSkipped, "interrupted before the confirmation run")
		}
		if try > 1 {
			r.con.printf("%s %-10s %s the last confirmation missed: confirming %.1f req/s, %.0f%% of its rate\n",
				label, j.Scenario, r.appColumn(j.App), rate, capacity.ConfirmStep*100)
		}
		jt := j
		jt.Try = try
		res := r.measure(ctx, jt, rate, label, 0, 0)
		r.con.printf("%s %-10s %s confirmation %s\n", label, j.Scenario, r.appColumn(j.App), oneLine(res))
		return res
	})
	if got.Run.Verdict == results.VerdictSkipped {
		// Interrupted before the first confirmation ran: no run to show.
		c.Reason = got.Run.Reason
		return
	}
	if got.Rate != c.Rate {
		c.Found = c.Rate
	}
	c.Rate, c.Held, c.Missed = got.Rate, got.Held, got.Missed
	c.Confirmation = &got.Run
	switch {
	case r.isolatedCores() > 0:
		// What its own cores served: a stop with CPU to spare is no
		// promise that more of it would have been used.
		c.PerCore = c.Rate / float64(r.isolatedCores())
	case got.Run.AppCost.Available && got.Run.AppCost.CPUMean > 0:
		c.PerCore = c.Rate / got.Run.AppCost.CPUMean
	}
}

// pause waits d unless ctx ends first; it reports whether to go on.
func (r *runner) pause(ctx context.Context, d time.Duration) bool {
	if d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
	}
	return ctx.Err() == nil
}

// capacityLine is the console line of a finished search.
func capacityLine(c results.Capacity) string {
	switch c.Status {
	case results.CapacityCapped:
		return fmt.Sprintf("capacity at least %.1f req/s (the cap), %d probes", c.Rate, len(c.Probes))
	case results.CapacityNone:
		return fmt.Sprintf("no capacity: even %.1f req/s missed the SLO (%s: %s)", c.Upper, c.StopReason, c.StopDetail)
	}
	return fmt.Sprintf("capacity %.1f req/s (%.1f missed), %d probes; stopped by %s: %s", c.Rate, c.Upper, len(c.Probes), c.StopReason, c.StopDetail)
}
