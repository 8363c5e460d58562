package runner

import (
	"context"
	"fmt"
	"os"

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
	s       *capacitySearch
	j       load.Job
	session *scenario.Session
	cfg     capacity.Config
	n       int // probes run so far
}

// probe is the search's capacity.ProbeFunc.
func (p *prober) probe(ctx context.Context, rate float64) (results.Probe, error) {
	s, o := p.s, p.s.cfg.Capacity
	if p.n > 0 && !pause(ctx, s.probePause()) {
		return results.Probe{}, ctx.Err()
	}
	p.n++
	tag := fmt.Sprintf("crudbench %s capacity/%s/%s/%d/probe%d", s.runID, p.j.Scenario, p.j.App, p.j.Repeat, p.n)
	wl, err := scenario.NewWorkload(p.session, p.j.Scenario, tag)
	if err != nil {
		return results.Probe{}, err
	}
	bg := context.WithoutCancel(ctx)
	var vacanciesBefore int64 = -1
	if writesRows(p.j.Scenario) {
		vacanciesBefore = s.db.VacancyCount(bg)
	}
	opts := load.Options{
		Name: fmt.Sprintf("%s/%s/%s/%g", capacityProfile, p.j.Scenario, p.j.App, rate), Rate: rate,
		Warmup: o.ProbeWarmup, Duration: o.ProbeDuration,
		Timeout: s.cfg.Timeout, MaxConnections: s.cfg.MaxConnections, Observe: wl.Observe,
	}
	src := s.apps.App(p.j.App).sources(p.j.App)
	out, series, self, attackErr := s.load.Attack(ctx, p.j.App, wl, opts, src)
	if writesRows(p.j.Scenario) {
		if err := s.db.CleanupWrites(bg, wl, tag, vacanciesBefore); err != nil {
			s.notes.note(fmt.Sprintf("capacity probe %s %s at %g/s: %v", p.j.Scenario, p.j.App, rate, err))
		}
	}
	if out == nil {
		return results.Probe{}, attackErr
	}
	pr, unread := probeOf(rate, out, series, src, self)
	s.notes.unread(fmt.Sprintf("capacity probe %s %s at %g/s", p.j.Scenario, p.j.App, rate), unread)
	pr.OtherCPU, pr.OtherCPUAvailable = capacity.OtherCPU(p.cfg, pr)
	if pr.OtherCPUAvailable && capacity.Shown(pr.OtherCPU) {
		pr.Others = self.Others(capacity.OthersNamed, capacity.OthersLeast, src.PID(), s.dbPID, os.Getpid(), src.BrokerPID())
	}
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
	broker := ""
	if pr.BrokerCPUAvailable {
		broker = "  rabbitmq " + cores(pr.BrokerCPU, true)
	}
	p.s.con.printf("  probe %2d %-10s %s %8.1f req/s  p99 %7.1f ms  app %s  pool wait %s ms  postgres %s%s  runner %.2f  machine %s cores%s  %s\n",
		p.n, p.j.Scenario, p.s.con.app(p.j.App), pr.Rate, pr.P99, appCores(pr), poolWait(pr),
		cores(pr.DBCPU, pr.DBCPUAvailable), broker, pr.RunnerCPU, cores(pr.MachineCPU, pr.MachineCPUAvailable), others(pr), verdict)
}

// others is the probe's named other processes for its console line,
// "  (other: kworker/1:2 0.21, sshd 0.03)", or nothing.
func others(pr results.Probe) string {
	if len(pr.Others) == 0 {
		return ""
	}
	return "  (other: " + capacity.OthersText(pr.Others) + ")"
}

// cores formats a CPU figure in cores, "n/a" when it was not seen.
func cores(c float64, ok bool) string {
	if !ok {
		return " n/a"
	}
	return fmt.Sprintf("%.2f", c)
}

// appCores formats the app's CPU in cores like cores, as "<0.03" when it
// is under its resolution: what a probe at a few requests a second, read
// in 10 ms ticks, often is.
func appCores(pr results.Probe) string {
	if pr.AppCPUBelowResolution() {
		return fmt.Sprintf("<%.2f", pr.AppCPU+pr.AppCPUResolution)
	}
	return cores(pr.AppCPU, pr.AppCPUAvailable)
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
	if b := res.Broker; b != nil && b.CPUAvailable {
		pr.BrokerCPU, pr.BrokerCPUAvailable = b.CPUMean, true
	}
	if w := out.Window.End.Sub(out.Window.Start).Seconds(); w > 0 && res.AppCost.Available {
		pr.AppCPUResolution = res.AppCost.CPUResolutionMsPerRequest / 1000 * float64(out.Summary.Successes) / w
	}
	if pool := res.AppCost.Pool; pool != nil {
		pr.PoolWaitMs, pr.PoolAvailable = pool.WaitMsPerRequest, true
	}
	pr.Pauses = res.AppCost.Pauses
	// The runner and the machine over the window, on the samples' clock;
	// the runner's getrusage over the whole attack when they are missing.
	c := cost.TakeCores(series, out.Window.Start, out.Window.End)
	pr.RunnerCPU = self.Cores()
	if c.RunnerOK {
		pr.RunnerCPU = c.Runner
	}
	pr.MachineCPU, pr.MachineCPUAvailable = c.Machine, c.MachineOK
	return pr, unread
}
