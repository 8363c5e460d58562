package runner

import (
	"context"
	"fmt"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/cost"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
)

// prober runs the probes of one capacity search: each a short attack at
// one rate through the path a measured run takes (the samplers, the
// runner's own cost, the cleanup of writes), printed as it ends.
type prober struct {
	r       *runner
	j       load.Job
	session *scenario.Session
	cfg     capacity.Config
	n       int // probes run so far
}

// probe is the search's capacity.ProbeFunc.
func (p *prober) probe(ctx context.Context, rate float64) (results.Probe, error) {
	r, o := p.r, p.r.cfg.Capacity
	if p.n > 0 && !r.pause(ctx, r.probePause()) {
		return results.Probe{}, ctx.Err()
	}
	p.n++
	tag := fmt.Sprintf("crudbench %s capacity/%s/%s/probe%d", r.runID, p.j.Scenario, p.j.App, p.n)
	wl, err := scenario.NewWorkload(p.session, p.j.Scenario, tag)
	if err != nil {
		return results.Probe{}, err
	}
	bg := context.WithoutCancel(ctx)
	var vacanciesBefore int64 = -1
	if writesRows(p.j.Scenario) {
		vacanciesBefore = r.vacancyCount(bg)
	}
	opts := load.Options{
		Name: fmt.Sprintf("%s/%s/%s/%g", capacityProfile, p.j.Scenario, p.j.App, rate), Rate: rate,
		Warmup: o.ProbeWarmup, Duration: o.ProbeDuration,
		Timeout: r.cfg.Timeout, MaxConnections: r.cfg.MaxConnections, Observe: wl.Observe,
	}
	machine := watchMachine(ctx, o.ProbeWarmup, o.ProbeDuration)
	src := r.sourcesFor(p.j.App)
	out, series, self, attackErr := r.attack(ctx, wl, opts, src)
	if writesRows(p.j.Scenario) {
		if err := r.cleanupWrites(bg, wl, tag, vacanciesBefore); err != nil {
			r.note(fmt.Sprintf("capacity probe %s %s at %g/s: %v", p.j.Scenario, p.j.App, rate, err))
		}
	}
	if out == nil {
		return results.Probe{}, attackErr
	}
	pr, unread := probeOf(rate, out, series, src, self)
	r.noteUnread(fmt.Sprintf("capacity probe %s %s at %g/s", p.j.Scenario, p.j.App, rate), unread)
	pr.MachineCPU, pr.MachineCPUAvailable = machine()
	switch {
	case out.Interrupted:
		return pr, ctx.Err()
	case attackErr != nil:
		return pr, attackErr
	}
	p.print(pr)
	return pr, nil
}

// print writes the probe's console line; it judges the probe as the
// search does to say whether it met the SLO.
func (p *prober) print(pr results.Probe) {
	verdict := "met"
	if !capacity.Met(p.cfg, &pr) {
		verdict = "missed: " + pr.Why
	}
	p.r.con.printf("  probe %2d %-10s %s %8.1f req/s  p99 %7.1f ms  app %s  pool wait %s ms  postgres %s  runner %.2f  machine %s cores  %s\n",
		p.n, p.j.Scenario, p.r.appColumn(p.j.App), pr.Rate, pr.P99, cores(pr.AppCPU, pr.AppCPUAvailable), poolWait(pr),
		cores(pr.DBCPU, pr.DBCPUAvailable), pr.RunnerCPU, cores(pr.MachineCPU, pr.MachineCPUAvailable), verdict)
}

// cores formats a CPU figure in cores, "n/a" when it was not seen.
func cores(c float64, ok bool) string {
	if !ok {
		return " n/a"
	}
	return fmt.Sprintf("%.2f", c)
}

// poolWait formats a probe's mean pool wait per request in ms, "n/a"
// when the app's metrics were not read.
func poolWait(pr results.Probe) string {
	if !pr.PoolAvailable {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", pr.PoolWaitMs)
}

// probeOf takes a probe's numbers from its attack the way a measured run
// takes them (Summary.Record, cost.Take), with the runner's own CPU over
// the attack; unread are the app's replicas that could not be read.
func probeOf(rate float64, out *load.Outcome, series map[string]sampler.Series, src cost.Sources, self cost.Usage) (pr results.Probe, unread []string) {
	var res results.Result
	out.Summary.Record(&res)
	unread = cost.Take(&res, out, series, src)
	pr = results.Probe{
		Rate: rate, AchievedRate: res.AchievedRate, Throughput: res.Throughput, SuccessRatio: res.SuccessRatio,
		P50: res.Latency.P50, P99: res.Latency.P99,
		AppCPU: res.AppCost.CPUMean, AppCPUAvailable: res.AppCost.Available,
		DBCPU: res.DB.CPUMean, DBCPUAvailable: res.DB.CPUAvailable,
	}
	if pool := res.AppCost.Pool; pool != nil {
		pr.PoolWaitMs, pr.PoolAvailable = pool.WaitMsPerRequest, true
	}
	pr.RunnerCPU = self.Cores()
	return pr, unread
}

// watchMachine reads the machine's CPU when a probe's measured window
// starts (after warmup) and when it ends (d later), and returns a function
// that waits for the busy cores between the two. It reports false when
// /proc/stat cannot be read or ctx ended first.
func watchMachine(ctx context.Context, warmup, d time.Duration) func() (float64, bool) {
	type reading struct {
		cores float64
		ok    bool
	}
	done := make(chan reading, 1)
	go func() {
		read := func(after time.Duration) (sampler.MachineCPU, bool) {
			select {
			case <-time.After(after):
			case <-ctx.Done():
				return sampler.MachineCPU{}, false
			}
			m, err := sampler.ReadMachineCPU()
			return m, err == nil
		}
		from, ok := read(warmup)
		if !ok {
			done <- reading{}
			return
		}
		to, ok := read(d)
		done <- reading{from.BusyCores(to), ok}
	}()
	return func() (float64, bool) {
		m := <-done
		return m.cores, m.ok
	}
}
