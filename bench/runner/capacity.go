package runner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/config"
	"crudbench/bench/load"
	"crudbench/bench/results"
)

// capacityProfile names the confirmation runs of the capacity search among
// the profiles of results and files.
const capacityProfile = "capacity"

// capacitySearch is the phase that searches every (scenario, app) that
// passed validation for its capacity (capacity.Search), each search's
// probes short attacks through the samplers, its confirmations full-length
// runs measured as the fixed profiles' are.
type capacitySearch struct {
	cfg   config.Config
	con   *console
	notes *notebook
	// valid is what validation found.
	valid validity
	// apps, load and db are the apps, the load generator with its
	// samplers and the database; m measures the confirmations.
	apps fleet
	load attacker
	db   database
	m    *measurer
	// runID tags the rows the probes write.
	runID string
	// cores is the machine's CPUs; dbPID is PostgreSQL's postmaster, 0
	// when it is not visible.
	cores, dbPID int
}

// run searches every (scenario, app) for its capacity, -repeat times, the
// apps taking turns going first as load.Plan orders the measured runs,
// and returns the searches in the configured order, the repeats of each
// folded into their median (results.FoldCapacities); nil without
// -capacity.
func (s *capacitySearch) run(ctx context.Context) []results.Capacity {
	if !s.cfg.Capacity.Search {
		return nil
	}
	jobs := load.Plan([]string{capacityProfile}, s.cfg.Scenarios, s.cfg.Apps, s.cfg.Repeat)
	n := s.valid.count(jobs)
	probes := s.maxProbes()
	s.con.printf("Capacity search of %d scenario/app pair(s)%s: at most %d probes of %s each, then up to %d confirmations of %s: at most about %s in all.\n",
		len(s.cfg.Scenarios)*len(s.cfg.Apps), searchesText(s.cfg.Repeat), probes, s.cfg.Capacity.ProbeWarmup+s.cfg.Capacity.ProbeDuration, capacity.MaxConfirmations, s.cfg.Warmup+s.cfg.Duration, round(time.Duration(n)*s.searchTime(probes)))
	found := map[load.Job][]results.Capacity{}
	for i, j := range jobs {
		label := fmt.Sprintf("[capacity %d/%d]", i+1, len(jobs))
		key := j
		key.Repeat = 0
		found[key] = append(found[key], s.repeatedSearch(ctx, j, label))
	}
	var searched, out []results.Capacity
	for _, sc := range s.cfg.Scenarios {
		for _, a := range s.cfg.Apps {
			each := found[load.Job{Profile: capacityProfile, Scenario: sc, App: a}]
			searched = append(searched, each...)
			out = append(out, results.FoldCapacities(each))
		}
	}
	if note := results.CapacityRepeatNote(s.cfg.Repeat, s.attachedApps()); note != "" {
		s.notes.note(note)
	}
	if other, named := otherLoad(searched, s.capacityConfig); capacity.Shown(other) {
		who := ""
		if len(named) > 0 {
			who = " (in that probe: " + capacity.OthersText(named) + ")"
		}
		s.notes.note(fmt.Sprintf("The machine was busy with other work during the capacity search: processes other than the app, PostgreSQL and the runner used up to %.2f cores in a probe%s. The capacities are what was left to the apps, not what the machine can do.", other, who))
	}
	replicas := map[string]int{}
	for _, a := range s.cfg.Apps {
		replicas[a] = len(s.cfg.MetricsURLs[a])
	}
	for _, n := range results.CapacityNotes(s.cfg.Mode() == "attach", s.cores, s.isolatedCores(), s.cfg.Apps, replicas) {
		s.notes.note(n)
	}
	return out
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
func (s *capacitySearch) attachedApps() []string {
	var names []string
	for _, a := range s.cfg.Apps {
		if u := s.apps.App(a); u != nil && u.start == nil {
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
func (s *capacitySearch) repeatedSearch(ctx context.Context, j load.Job, label string) results.Capacity {
	u := s.apps.App(j.App)
	if s.cfg.Repeat > 1 && u != nil && u.start != nil && s.valid.problem(j.Scenario, j.App) == nil && ctx.Err() == nil {
		pid, err := s.apps.Restart(ctx, j.App)
		if err != nil {
			c := results.Capacity{Scenario: j.Scenario, App: j.App, Probes: []results.Probe{}, Search: j.Repeat,
				Status: results.CapacityFailed, Reason: "starting the app afresh: " + err.Error()}
			s.con.printf("%s %-10s %s search %d: %s\n", label, j.Scenario, s.con.app(j.App), j.Repeat, c.Reason)
			return c
		}
		s.con.printf("%s %-10s %s search %d of %d: restarted the app (pid %d)\n", label, j.Scenario, s.con.app(j.App), j.Repeat, s.cfg.Repeat, pid)
	}
	c := s.capacityOf(ctx, j, label)
	if s.cfg.Repeat > 1 {
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
func (s *capacitySearch) capacityConfig(app string) capacity.Config {
	o := s.cfg.Capacity
	return capacity.Config{
		SLO:   results.CapacitySLO(s.cfg.SLOP99),
		Start: o.Start, Growth: capacity.Growth, Max: o.Max, Precision: o.Precision,
		Cores: s.cores, AppCores: s.appCores(), RestCores: s.restCores(),
		AppReplicas: len(s.cfg.MetricsURLs[app]),
		MissPause:   capacity.MissPauses * s.probePause(),
	}
}

// appCores is how many CPUs the apps may use: their own set's with
// -cpus, else the machine's.
func (s *capacitySearch) appCores() int {
	return cmp.Or(s.isolatedCores(), s.cores)
}

// restCores is how many CPUs the throwaway PostgreSQL and the runner had
// to themselves with -cpus; zero when they shared the machine's, and with
// a DATABASE_URL server, which is not on them.
func (s *capacitySearch) restCores() int {
	if !s.cfg.CPUs.Isolated() || s.cfg.Mode() != "embedded" {
		return 0
	}
	return len(s.cfg.CPUs.Rest)
}

// isolatedCores is how many CPUs the apps had to themselves with -cpus;
// zero when they shared the machine's.
func (s *capacitySearch) isolatedCores() int { return len(s.cfg.CPUs.App) }

// maxProbes bounds the probes of one search: the ramp's steps from the
// first rate to the cap, then the bisection of a bracket one growth step
// wide down to the precision, each rate tried up to capacity.MaxTries
// times.
func (s *capacitySearch) maxProbes() int {
	o := s.cfg.Capacity
	ramp := 1 + int(math.Ceil(math.Log(o.Max/o.Start)/math.Log(capacity.Growth)))
	bisect := int(math.Ceil(math.Log2(math.Log(capacity.Growth) / math.Log1p(o.Precision))))
	return capacity.MaxTries * (ramp + max(bisect, 0))
}

// searchTime is the longest one search with its confirmations takes.
func (s *capacitySearch) searchTime(probes int) time.Duration {
	o := s.cfg.Capacity
	perProbe := o.ProbeWarmup + o.ProbeDuration + (1+capacity.MissPauses)*s.probePause()
	return time.Duration(probes)*perProbe + s.cfg.Cooldown + capacity.MaxConfirmations*(s.cfg.Cooldown+s.cfg.Warmup+s.cfg.Duration)
}

// probePause is the pause before each probe, so one probe's queue does not
// spill into the next: the cool-down, at most capacity.MaxProbePause.
func (s *capacitySearch) probePause() time.Duration {
	return min(s.cfg.Cooldown, capacity.MaxProbePause)
}

// capacityOf searches one (scenario, app): it probes, then confirms the
// rate found with a run of the full length.
func (s *capacitySearch) capacityOf(ctx context.Context, j load.Job, label string) results.Capacity {
	c := results.Capacity{Scenario: j.Scenario, App: j.App, Probes: []results.Probe{}}
	if verr := s.valid.problem(j.Scenario, j.App); verr != nil {
		c.Status, c.Reason = results.CapacityFailed, "validation failed: "+verr.Error()
		return c
	}
	if !pause(ctx, s.cfg.Cooldown) {
		c.Status, c.Reason = results.CapacitySkipped, "interrupted before this search"
		return c
	}
	session, err := s.apps.Login(ctx, j.App)
	if err != nil {
		c.Status, c.Reason = results.CapacityFailed, err.Error()
		return c
	}
	s.con.printf("%s %-10s %s searching from %g req/s\n", label, j.Scenario, s.con.app(j.App), s.cfg.Capacity.Start)
	pr := &prober{s: s, j: j, session: session, cfg: s.capacityConfig(j.App)}
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
	s.con.printf("%s %-10s %s %s\n", label, j.Scenario, s.con.app(j.App), capacityLine(c))
	if c.Rate > 0 {
		s.confirm(ctx, j, label, &c)
	}
	return c
}

// confirm measures full-length runs through the path of the fixed
// profiles (each its own raw and samples files), at the capacity found
// and, while one misses the SLO, a step lower (capacity.Confirm); it
// records the rate the capacity stands on, whether its run held, and the
// capacity per core.
func (s *capacitySearch) confirm(ctx context.Context, j load.Job, label string, c *results.Capacity) {
	got := capacity.Confirm(ctx, s.capacityConfig(j.App).SLO, c.Rate, func(ctx context.Context, rate float64, try int) results.Result {
		if !pause(ctx, s.cfg.Cooldown) {
			return s.m.blank(j, results.VerdictSkipped, "interrupted before the confirmation run")
		}
		if try > 1 {
			s.con.printf("%s %-10s %s the last confirmation missed: confirming %.1f req/s, %.0f%% of its rate\n",
				label, j.Scenario, s.con.app(j.App), rate, capacity.ConfirmStep*100)
		}
		jt := j
		jt.Try = try
		res := s.m.measure(ctx, jt, rate, label, 0, 0)
		s.con.printf("%s %-10s %s confirmation %s\n", label, j.Scenario, s.con.app(j.App), oneLine(res))
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
	case s.isolatedCores() > 0:
		// What its own cores served: a stop with CPU to spare is no
		// promise that more of it would have been used.
		c.PerCore = c.Rate / float64(s.isolatedCores())
	case got.Run.AppCost.Available && got.Run.AppCost.CPUMean > 0:
		c.PerCore = c.Rate / got.Run.AppCost.CPUMean
	}
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
