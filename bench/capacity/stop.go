package capacity

import (
	"fmt"
	"math"
	"strings"

	"crudbench/bench/results"
)

// BusyShare is the share of its cores at which a process, or the whole
// machine, counts as CPU-bound. Not 100%: CPU readings over a short probe
// lag by up to a scheduler tick per busy thread, and a process that waits
// on the network between requests never quite fills its cores even when
// CPU is what limits it.
const BusyShare = 0.85

// OtherShown is the CPU (cores) of the machine's other processes (the
// machine less the app, PostgreSQL and the runner, those whose CPU is
// available) above which a stop detail states it and a probe names the
// processes it came from (Probe.Others): a busy machine explains a limit
// as much as the app does. With the four figures read on one clock (see
// cost.Watchers), a tenth of a core is real work by something else, not
// a gap between readings.
const OtherShown = 0.1

// PoolShare is the share of a probe's median latency that the mean wait for
// a connection from the app's pool must reach to name the pool as the
// limit. The wait is a mean over every request and the median is the
// typical request's whole time: at a quarter, waiting for a connection is
// a large part of either the typical request or the tail (the few that
// waited long raise the mean), and the tail is what the SLO judges. Under
// it the wait is too small a part to explain the latency: something else
// queued.
const PoolShare = 0.25

// TailShare is the share of requests beyond the p99. For the pool to
// explain a p99 over the SLO, at least that share of the requests must
// have waited about the p99's excess over the p50, which adds
// TailShare × (p99 − p50) to the mean wait per request: a smaller mean
// wait cannot have made the tail, however large a share of the p50 it is.
const TailShare = 0.01

// PauseShare is the share of a probe's excess latency, its p99 less its
// p50, that the runtime's long pauses must reach to explain its miss: a
// request that arrives as a pause begins waits all of it, so pauses at
// least half the excess are most of it. They must also have been frequent
// enough to reach the tail: for TailShare of the requests to have met
// one, the runtime must have paused at least TailShare of the time (10 ms
// a second).
const PauseShare = 0.5

// QuickShare is the share of the SLO under which a probe's p50 counts as
// quick: with the rate held, a quick p50 and a p99 over the SLO, most
// requests met no queue and only the tail was slow.
const QuickShare = 0.25

// StopReason says what kept the app from meeting the SLO at p, a probe
// that missed it: one of the results.Stop* constants, and a sentence with
// the numbers it was judged on.
//
// The checks run in order, the first that holds wins: the load generator
// when it did not keep its schedule (vegeta sends late only when the runner
// is short of CPU, and then the app was never offered the rate); the app
// when it used BusyShare of AppCores; the busiest of PostgreSQL, the
// runner and an amqp app's broker (results.StopBrokerCPU, when its CPU is
// seen) when, on CPUs of their own (RestCores), they used BusyShare of
// them together; the one of app, PostgreSQL, broker, runner
// and the machine's other processes that used the most CPU when the
// machine used BusyShare of Cores; the app's database pool when, with CPU
// to spare, the runtime's pauses (from the app's metrics) when they made
// most of the tail (pausesExplain): the garbage collector's before Node's
// event loop, which a collection holds too; the app's database pool when,
// with CPU to spare, its mean wait per request reached PoolShare of the
// median latency and could have made the tail (TailShare) — Node's pool
// wait includes the loop's delay, which is why the pauses come first;
// a latency spike when the probe held its rate by the SLO's own terms
// (results.Judgement.HeldRate) with a quick p50 (QuickShare) and nothing above explains its tail; else queueing,
// latency that grew with CPU to spare. A CPU figure that is not
// available is said so and never guessed: it takes part in no check, and
// the busiest process is then the busiest of those seen, with the rest of
// the machine's CPU, theirs included, stated beside it. The CPU of an app
// with replicas (Config.AppReplicas) is stated and takes part in no check
// either, as if it were not available.
func StopReason(cfg Config, p results.Probe) (reason, detail string) {
	cpu := cpuText(cfg, p)
	m := onMachine(cfg, p)
	pause := pausesExplain(p)
	switch {
	case p.AchievedRate < cfg.SLO.MinThroughputShare*p.Rate:
		return results.StopLoadGenerator, fmt.Sprintf("the load generator sent %s of %s req/s: it fell behind its schedule; %s",
			decimals(p.AchievedRate, 1), decimals(p.Rate, 1), cpu)
	case m.AppCPUAvailable && m.AppCPU >= BusyShare*float64(cfg.AppCores):
		return results.StopAppCPU, fmt.Sprintf("the app used its CPU: %s", cpu)
	case cfg.RestCores > 0 && m.DBCPUAvailable && restSide(m) >= BusyShare*float64(cfg.RestCores):
		reason, who := results.StopLoadGenerator, "the load generator"
		if m.DBCPU > m.RunnerCPU {
			reason, who = results.StopPostgresCPU, "PostgreSQL"
		}
		side := "PostgreSQL and the load generator"
		if m.BrokerCPUAvailable {
			side = "PostgreSQL, RabbitMQ and the load generator"
			if m.BrokerCPU > max(m.DBCPU, m.RunnerCPU) {
				reason, who = results.StopBrokerCPU, "RabbitMQ"
			}
		}
		return reason, fmt.Sprintf("%s used their %s and %s used the most: %s", side, cores(cfg.RestCores), who, cpu)
	case m.MachineCPUAvailable && m.MachineCPU >= BusyShare*float64(cfg.Cores):
		reason, who := busiest(m)
		return reason, fmt.Sprintf("the machine was CPU-bound and %s used the most: %s", who, cpu)
	case pause != "":
		what := "the garbage collector paused"
		if pause == results.StopEventLoopLag {
			what = "the event loop was held"
		}
		return pause, fmt.Sprintf("%s for most of the excess latency, with CPU to spare: a p99 of %s ms over a p50 of %s ms; %s; %s",
			what, decimals(p.P99, 1), decimals(p.P50, 2), PausesText(p.Pauses), cpu)
	case poolExplains(p):
		return results.StopPool, fmt.Sprintf("requests waited %s ms on average for a connection from the app's pool, %s of the p50 latency of %s ms, with CPU to spare: %s",
			decimals(p.PoolWaitMs, 2), percent(p.PoolWaitMs/p.P50), decimals(p.P50, 2), cpu)
	}
	if p.PoolAvailable {
		cpu += fmt.Sprintf("; pool wait %s ms per request", decimals(p.PoolWaitMs, 2))
	}
	if t := PausesText(p.Pauses); t != "" {
		cpu += "; " + t
	}
	if cfg.SLO.JudgeProbe(p).HeldRate && p.P50 <= QuickShare*msOf(cfg.SLO.P99) {
		return results.StopSpike, fmt.Sprintf("latency spike with CPU to spare: the rate was held and the p50 was %s ms, but the p99 was %s ms, and neither CPU, the runtime's pauses nor the pool explains it: %s",
			decimals(p.P50, 2), decimals(p.P99, 1), cpu)
	}
	return results.StopQueueing, fmt.Sprintf("latency grew with CPU to spare (a pool, lock or connection limit): %s", cpu)
}

// pausesExplain names the runtime's pauses that explain p's miss,
// results.StopGCPause or StopEventLoopLag, or returns "" when none does.
// A kind of pause explains it when its long pauses reach PauseShare of the
// excess latency (p99 − p50) and it paused at least TailShare of the time.
// The long pauses are the collector's p99 (a histogram of every pause) and
// the event loop's longest delay: its timer ticks once a turn, so one
// 300 ms hold a second is one tick in a hundred and under most seconds'
// p99, though every request that arrived during it waited.
func pausesExplain(p results.Probe) string {
	excess := p.P99 - p.P50
	if p.Pauses == nil || excess <= 0 {
		return ""
	}
	explains := func(longMs, msPerSecond float64) bool {
		return longMs >= PauseShare*excess && msPerSecond >= TailShare*1000
	}
	if g := p.Pauses.GC; g != nil && explains(g.P99Ms, g.MsPerSecond) {
		return results.StopGCPause
	}
	if l := p.Pauses.EventLoop; l != nil && explains(l.MaxMs, l.MsPerSecond) {
		return results.StopEventLoopLag
	}
	return ""
}

// PausesText states a runtime's pauses: "GC p99 4.8 ms, 21 ms a second
// (17 a second); event loop held up to 310 ms, 301 ms a second (worst
// second's p99 0.52 ms)"; empty without figures.
func PausesText(p *results.Pauses) string {
	if p == nil {
		return ""
	}
	var parts []string
	if g := p.GC; g != nil {
		parts = append(parts, fmt.Sprintf("GC p99 %s ms, %s ms a second (%s a second)",
			decimals(g.P99Ms, 2), decimals(g.MsPerSecond, 1), decimals(g.PerSecond, 1)))
	}
	if l := p.EventLoop; l != nil {
		parts = append(parts, fmt.Sprintf("event loop held up to %s ms, %s ms a second (worst second's p99 %s ms)",
			decimals(l.MaxMs, 1), decimals(l.MsPerSecond, 1), decimals(l.P99Ms, 2)))
	}
	return strings.Join(parts, "; ")
}

// poolExplains reports whether the pool's wait in p is large enough to
// explain its miss: a large part of the typical request (PoolShare of the
// p50) and enough to have made the tail (TailShare of the p99's excess
// over the p50).
func poolExplains(p results.Probe) bool {
	return p.PoolAvailable && p.P50 > 0 && p.PoolWaitMs >= PoolShare*p.P50 && p.PoolWaitMs >= TailShare*(p.P99-p.P50)
}

// busiest is the one of app, PostgreSQL, an amqp app's broker and runner
// that used the most CPU in p, among those whose CPU is available (the
// runner's always is) — or the machine's other processes, when every
// figure is seen and they used more than any of them: the capacity is
// then what they left over, and blaming the app for it would mislead.
func busiest(p results.Probe) (reason, who string) {
	reason, who, most := results.StopLoadGenerator, "the load generator", p.RunnerCPU
	if p.AppCPUAvailable && p.AppCPU > most {
		reason, who, most = results.StopAppCPU, "the app", p.AppCPU
	}
	if p.DBCPUAvailable && p.DBCPU > most {
		reason, who, most = results.StopPostgresCPU, "PostgreSQL", p.DBCPU
	}
	if p.BrokerCPUAvailable && p.BrokerCPU > most {
		reason, who, most = results.StopBrokerCPU, "RabbitMQ", p.BrokerCPU
	}
	if !allSeen(p) {
		return reason, who + " (of those seen)"
	}
	if rest(p) > most {
		return results.StopOtherLoad, "other processes"
	}
	return reason, who
}

// restSide is the CPU (cores) of what runs on the runner's side of the
// machine's CPUs (Config.RestCores): PostgreSQL, the runner, and an amqp
// app's broker when its CPU is seen, placed beside PostgreSQL.
func restSide(p results.Probe) float64 {
	r := p.DBCPU + p.RunnerCPU
	if p.BrokerCPUAvailable {
		r += p.BrokerCPU
	}
	return r
}

// onMachine is p as the app-CPU and machine rules see it: for an app with
// replicas (Config.AppReplicas), without the app's CPU, which is not judged
// against cores the runner does not know nor taken as this machine's.
func onMachine(cfg Config, p results.Probe) results.Probe {
	if cfg.AppReplicas > 1 {
		p.AppCPU, p.AppCPUAvailable = 0, false
	}
	return p
}

// allSeen reports whether the CPU of the app and of PostgreSQL are both
// available (the runner's always is).
func allSeen(p results.Probe) bool {
	return p.AppCPUAvailable && p.DBCPUAvailable
}

// OtherCPU is the CPU (cores) of the machine's other processes in p, a
// probe of a search configured by cfg: the machine less the app,
// PostgreSQL and the runner. ok is false unless every one of those figures
// was seen, since a missing one would count as theirs, and for an app with
// replicas, whose CPU need not be this machine's.
func OtherCPU(cfg Config, p results.Probe) (cores float64, ok bool) {
	m := onMachine(cfg, p)
	return rest(m), m.MachineCPUAvailable && allSeen(m)
}

// rest is the machine's CPU less that of the app, PostgreSQL and the
// runner, those available: the other processes', and the unavailable
// ones' when some are.
func rest(p results.Probe) float64 {
	r := p.MachineCPU - p.RunnerCPU
	if p.AppCPUAvailable {
		r -= p.AppCPU
	}
	if p.DBCPUAvailable {
		r -= p.DBCPU
	}
	if p.BrokerCPUAvailable {
		r -= p.BrokerCPU
	}
	return r
}

// cpuText states p's CPU figures in cores: "app 0.97 of 1 core; PostgreSQL
// 0.31; load generator 0.22; machine 1.62 of 2", with the other processes'
// share when it is worth naming (for an app with replicas, "the rest"
// holds whatever of their CPU was spent on this machine).
func cpuText(cfg Config, p results.Probe) string {
	appCores := " of " + cores(cfg.AppCores)
	if cfg.AppReplicas > 1 {
		appCores = fmt.Sprintf(" over %d replicas (their cores unknown: not judged)", cfg.AppReplicas)
	}
	parts := []string{
		figure("app", p.AppCPU, p.AppCPUAvailable, appCores),
		figure("PostgreSQL", p.DBCPU, p.DBCPUAvailable, ""),
	}
	if p.BrokerCPUAvailable {
		parts = append(parts, figure("RabbitMQ", p.BrokerCPU, true, ""))
	}
	parts = append(parts,
		figure("load generator", p.RunnerCPU, true, ""),
		figure("machine", p.MachineCPU, p.MachineCPUAvailable, fmt.Sprintf(" of %d", cfg.Cores)),
	)
	m := onMachine(cfg, p)
	if rest := rest(m); p.MachineCPUAvailable && Shown(rest) {
		label := "other processes"
		if !allSeen(m) {
			label = "the rest, unavailable figures included"
		}
		named := ""
		if len(p.Others) > 0 {
			named = " (" + OthersText(p.Others) + ")"
		}
		parts = append(parts, figure(label, rest, true, named))
	}
	return strings.Join(parts, "; ")
}

// Shown reports whether other, the CPU of the machine's other processes,
// is above OtherShown as the detail prints it (to hundredths of a core),
// so that a difference of readings that prints 0.10 is not stated as
// above 0.10.
func Shown(other float64) bool {
	return math.Round(other*100) > OtherShown*100
}

// OthersText lists named processes with their CPU in cores:
// "kworker/1:2 0.21, sshd 0.03".
func OthersText(ps []results.ProcessShare) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%s %.2f", p.Name, p.Cores)
	}
	return strings.Join(parts, ", ")
}

// figure is "name 0.97" followed by suffix, or "name not available".
func figure(name string, v float64, available bool, suffix string) string {
	if !available {
		return name + " not available"
	}
	return fmt.Sprintf("%s %.2f%s", name, v, suffix)
}

// cores is "1 core" or "n cores".
func cores(n int) string {
	if n == 1 {
		return "1 core"
	}
	return fmt.Sprintf("%d cores", n)
}
