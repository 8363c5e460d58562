package runner

import (
	"context"
	"fmt"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/load"
	"crudbench/bench/results"
)

// fixedProfiles is the phase that measures the fixed profiles: every run
// load.Plan orders of a (scenario, app) that passed validation, each
// primed before its pair's first run and cooled down after, the failed
// pairs' runs recorded as failed with validation's problem.
type fixedProfiles struct {
	cfg   config.Config
	con   *console
	notes *notebook
	// valid is what validation found; m measures each run.
	valid validity
	m     *measurer
}

// run runs every load.Job and returns the results, repeats folded into
// one, in the order of profiles, scenarios and apps as configured.
func (p *fixedProfiles) run(ctx context.Context) []results.Result {
	jobs := load.Plan(p.cfg.Profiles, p.cfg.Scenarios, p.cfg.Apps, p.cfg.Repeat)
	if len(jobs) == 0 {
		return nil // -capacity without -profiles
	}
	perRun := p.cfg.Warmup + p.cfg.Duration
	measured := p.valid.count(jobs)
	closed := ""
	if p.cfg.ClosedLoop() {
		closed = fmt.Sprintf(" as a closed loop of %d client(s)", p.cfg.Clients)
	}
	p.con.printf("Measuring %d run(s) of %s each%s, %s; verdicts against an SLO of p99 ≤ %s.\n", measured, perRun, closed, p.howLong(len(jobs), measured, perRun), p.cfg.SLOP99)

	reps := map[load.Job][]results.Result{}
	primed := map[[2]string]bool{}
	done := 0
	for i, j := range jobs {
		key := load.Job{Profile: j.Profile, Scenario: j.Scenario, App: j.App, Repeat: 0}
		var res results.Result
		switch verr := p.valid.problem(j.Scenario, j.App); {
		case verr != nil:
			res = p.m.blank(j, results.VerdictFailed, "validation failed: "+verr.Error())
		case ctx.Err() != nil:
			res = p.m.blank(j, results.VerdictSkipped, "interrupted before this run")
		default:
			if done > 0 {
				p.coolDown(ctx)
			}
			p.primeOnce(ctx, j, primed)
			if ctx.Err() != nil {
				res = p.m.blank(j, results.VerdictSkipped, "interrupted before this run")
				break
			}
			done++
			left := remaining(measured-done, perRun, p.cfg.Cooldown)
			if done < measured {
				left += p.cfg.Cooldown
			}
			res = p.m.measure(ctx, j, p.cfg.Rates[j.Profile][j.Scenario], fmt.Sprintf("[%d/%d]", done, measured), left, i)
			p.con.printf("[%d/%d] %-6s %-10s %s %s\n", done, measured, j.Profile, j.Scenario, p.con.app(j.App), oneLine(res))
		}
		reps[key] = append(reps[key], res)
	}
	var out []results.Result
	for _, pr := range p.cfg.Profiles {
		for _, s := range p.cfg.Scenarios {
			for _, a := range p.cfg.Apps {
				out = append(out, results.Fold(reps[load.Job{Profile: pr, Scenario: s, App: a, Repeat: 0}], p.cfg.SLOP99))
			}
		}
	}
	return out
}

// primings counts the priming passes run runs: one per scenario and app
// that passed validation.
func (p *fixedProfiles) primings() int {
	n := 0
	for _, sc := range p.cfg.Scenarios {
		for _, a := range p.cfg.Apps {
			if p.valid.problem(sc, a) == nil {
				n++
			}
		}
	}
	return n
}

// primeOnce primes j's app with j's scenario (prime) before its first
// measured run, then cools down; primed records the pairs done. A sharded
// run is not primed: its runs keep the slots every shard shares.
func (p *fixedProfiles) primeOnce(ctx context.Context, j load.Job, primed map[[2]string]bool) {
	key := [2]string{j.Scenario, j.App}
	if p.cfg.Shard != nil || p.cfg.Prime <= 0 || primed[key] {
		return
	}
	primed[key] = true
	if err := p.prime(ctx, j, p.cfg.Rates[j.Profile][j.Scenario]); err != nil {
		p.notes.note(fmt.Sprintf("priming %s with %s: %v", j.App, j.Scenario, err))
	}
	p.coolDown(ctx)
}

// coolDown pauses between runs, unless the run is sharded: then the
// cool-down is part of every run's slot, and measure waits for the slot.
func (p *fixedProfiles) coolDown(ctx context.Context) {
	if p.cfg.Shard != nil || p.cfg.Cooldown <= 0 {
		return
	}
	pause(ctx, p.cfg.Cooldown)
}

// howLong says how long the runs take: about remaining's estimate, or,
// for a shard, when the last of the plan's jobs slots ends (every slot is
// waited for, whether this shard measures its run or not).
func (p *fixedProfiles) howLong(jobs, measured int, perRun time.Duration) string {
	if p.cfg.Shard == nil {
		var priming time.Duration
		if p.cfg.Prime > 0 {
			priming = time.Duration(p.primings()) * (p.cfg.Prime + p.cfg.Cooldown)
		}
		return "about " + round(remaining(measured, perRun, p.cfg.Cooldown)+priming) + " in all, priming included"
	}
	return "in slots of " + p.cfg.Slots().Length().String() + " ending by " + p.cfg.Slots().At(jobs).Local().Format(time.TimeOnly)
}

// remaining estimates the time n more runs take, cool-downs between them
// included (logins and cleanup are not counted: they are short).
func remaining(n int, perRun, cooldown time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(n)*perRun + time.Duration(n-1)*cooldown
}

// pause waits d unless ctx ends first; it reports whether to go on.
func pause(ctx context.Context, d time.Duration) bool {
	if d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
	}
	return ctx.Err() == nil
}
