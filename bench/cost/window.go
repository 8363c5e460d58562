// Package cost turns what was recorded during an attack — the app's and
// PostgreSQL's samples from /proc, the apps' scraped metrics, the runner's
// own getrusage — into the costs of its measured window: CPU and memory of
// the app (one process or the sum of its replicas), its pool's wait,
// PostgreSQL's CPU, and the load generator's own cost over the run. It
// chooses what to watch for an app (Sources, Watchers) and writes what was
// watched into the results folder (WriteSamples).
package cost

import (
	"math"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

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
		CPUSeconds:      st.CPUSeconds,
		RSSMeanMB:       float64(st.RSSMeanBytes) / results.BytesPerMB,
		RSSMaxMB:        float64(st.RSSMaxBytes) / results.BytesPerMB,
		RSSStartMB:      float64(st.RSSStartBytes) / results.BytesPerMB,
		RSSEndMB:        float64(st.RSSEndBytes) / results.BytesPerMB,

		CPUResolutionMsPerRequest: perRequest(ms(st.CPUResolution), successes),
	}
}

func perRequest(total float64, successes uint64) float64 {
	if successes == 0 {
		return 0
	}
	return total / float64(successes)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Take sets the app's and PostgreSQL's cost over the attack's measured
// window, the app's from its sources. It returns the URLs of the app's
// replicas that could not be read over the window, which leave the app's
// cost unavailable (a sum without them would be too low).
func Take(res *results.Result, out *load.Outcome, series map[string]sampler.Series, src Sources) (unread []string) {
	s := out.Summary
	from, to := out.Window.Start, out.Window.End
	switch {
	case src.replicated():
		res.AppCost, unread = replicasCost(series, src, from, to, s.Successes, s.Requests)
	default:
		if ser, ok := series[src.app]; ok && src.cpu != "" {
			res.AppCost = appCost(ser, src, from, to, s.Successes)
		}
		if len(src.scrapes) == 1 {
			if ser, ok := series[src.scrapes[0].series]; ok {
				res.AppCost.Pool = poolCost(ser, from, to, s.Requests)
				res.AppCost.Pauses = pausesCost(ser, from, to)
			}
		}
	}
	if ser, ok := series[targetPostgres]; ok {
		// Sampled with the app, on the same clock: the window's own
		// samples.
		st := ser.Window(from, to)
		if st.Samples >= 2 && !st.Missing {
			res.DB.CPUAvailable = true
			res.DB.CPUMean = st.CPUMean
			res.DB.CPUSeconds = st.CPUSeconds
			res.DB.CPUMsPerRequest = perRequest(res.DB.CPUSeconds*1000, s.Successes)
			res.DB.RSSMeanMB = float64(st.RSSMeanBytes) / results.BytesPerMB
		}
	}
	if src.broker > 0 || src.depth != nil {
		res.Broker = brokerCost(series, src, from, to, s.Successes)
	}
	return unread
}

// brokerCost is the broker's CPU and memory over the window from to to,
// from its tree's samples on the app's clock as PostgreSQL's are, and its
// request queue's depth over the readings in the window.
func brokerCost(series map[string]sampler.Series, src Sources, from, to time.Time, successes uint64) *results.BrokerCost {
	c := &results.BrokerCost{PID: src.broker}
	if ser, ok := series[targetBroker]; ok {
		st := ser.Window(from, to)
		if st.Samples >= 2 && !st.Missing {
			c.CPUAvailable = true
			c.CPUMean = st.CPUMean
			c.CPUSeconds = st.CPUSeconds
			c.CPUMsPerRequest = perRequest(st.CPUSeconds*1000, successes)
			c.RSSMeanMB = float64(st.RSSMeanBytes) / results.BytesPerMB
			c.RSSMaxMB = float64(st.RSSMaxBytes) / results.BytesPerMB
		}
	}
	var n, sum int
	for _, smp := range series[targetQueue].Samples {
		if smp.Queue == nil || smp.At.Before(from) || smp.At.After(to) {
			continue
		}
		n, sum = n+1, sum+smp.Queue.Depth
		c.QueueDepthMax = max(c.QueueDepthMax, smp.Queue.Depth)
	}
	if n >= 2 {
		c.QueueAvailable = true
		c.QueueDepthMean = float64(sum) / float64(n)
	} else {
		c.QueueDepthMax = 0
	}
	return c
}

// Cores is the CPU, in cores, of the runner's own process and of the
// whole machine over the window from to to, from the series Watchers
// recorded; ok is false for a figure without two samples in the window.
type Cores struct {
	Runner, Machine     float64
	RunnerOK, MachineOK bool
}

// TakeCores reads the runner's and the machine's CPU over the window from
// to to.
func TakeCores(series map[string]sampler.Series, from, to time.Time) Cores {
	var c Cores
	mean := func(name string) (float64, bool) {
		st := series[name].Window(from, to)
		return st.CPUMean, st.Samples >= 2 && !st.Missing
	}
	c.Runner, c.RunnerOK = mean(targetRunner)
	c.Machine, c.MachineOK = mean(targetMachine)
	return c
}

// appCost is the app's ProcessCost over the window from to to. From /proc,
// sampled ten times a second, it is the window's own samples; from
// metrics, scraped once a second, the scrapes around the window, their CPU
// time scaled to the window's length as PostgreSQL's is.
func appCost(ser sampler.Series, src Sources, from, to time.Time, successes uint64) results.ProcessCost {
	if src.cpu == results.SourceProc {
		c := processCost(ser.Window(from, to), successes, src.pid)
		if c.Available {
			c.Source, c.Tree = src.cpu, src.tree
		}
		return c
	}
	lo, hi := ser.Around(from, to)
	st := ser.Window(lo, hi)
	if k := scale(lo, hi, from, to); k > 0 {
		st.CPUSeconds *= k
		st.CPUResolution = time.Duration(float64(st.CPUResolution) * k)
	}
	c := processCost(st, successes, 0)
	if c.Available {
		c.Source = src.cpu
	}
	return c
}

// poolCost is the pool's acquisitions and their wait over the window from
// to to, from the scrapes around it scaled to its length, and the wait per
// request of the window; nil without two scrapes of the pool.
func poolCost(ser sampler.Series, from, to time.Time, requests uint64) *results.PoolCost {
	lo, hi := ser.Around(from, to)
	p, ok := ser.PoolChange(lo, hi)
	if !ok {
		return nil
	}
	k := scale(lo, hi, from, to)
	wait := p.AcquireWait.Seconds() * k
	return &results.PoolCost{
		Acquires:           uint64(math.Round(float64(p.Acquires) * k)),
		AcquireWaitSeconds: wait,
		WaitMsPerRequest:   perRequest(wait*1000, requests),
		MaxConns:           p.MaxConns,
	}
}

// pausesCost is what the app's runtime paused over the window from to to,
// from the scrapes around it; nil without two scrapes with pauses. Each
// figure is a rate or a percentile, which the scrapes' span gives as the
// window's. The event loop's timer interval is taken as the shortest
// delay each scrape saw: the loop's ticks are at least that far apart, so
// the delay beyond it is what held the loop.
func pausesCost(ser sampler.Series, from, to time.Time) *results.Pauses {
	c, ok := ser.PausesBetween(ser.Around(from, to))
	if !ok || c.Span <= 0 {
		return nil
	}
	var p results.Pauses
	if g := c.GC; g != nil {
		p.GC = &results.GCPauses{
			P99Ms:       ms(g.Quantile(0.99)),
			MsPerSecond: ms(g.Sum) / c.Span.Seconds(),
			PerSecond:   float64(g.Count) / c.Span.Seconds(),
		}
	}
	if len(c.EventLoop) > 0 {
		l := &results.LoopDelay{}
		var held float64
		for _, d := range c.EventLoop {
			l.MaxMs = max(l.MaxMs, ms(d.Max-d.Min))
			l.P99Ms = max(l.P99Ms, ms(d.P99-d.Min))
			if d.Mean > 0 {
				// Ticks a mean apart cover the scrape's span; each was
				// late by its delay less the interval.
				held += float64(d.Mean-d.Min) / float64(d.Mean)
			}
		}
		l.MsPerSecond = 1000 * held / float64(len(c.EventLoop))
		p.EventLoop = l
	}
	return &p
}

// scale is the window's length over that of the samples around it, by
// which a difference between those samples becomes the window's; zero
// when the samples span no time.
func scale(lo, hi, from, to time.Time) float64 {
	span := hi.Sub(lo)
	if span <= 0 {
		return 0
	}
	return to.Sub(from).Seconds() / span.Seconds()
}

// TakeStatements sets what PostgreSQL did over the attack as totals,
// beside the per-request figures: the statements (ok when they were
// counted) over the whole attack, warm-up included, divided by its
// successful requests (Take sets the server's CPU over the window). Both
// are the whole database's: with shards, what every shard's requests cost, which a
// merge divides by the shards' requests added up.
func TakeStatements(res *results.Result, out *load.Outcome, statements uint64, ok bool) {
	res.AttackSuccesses = out.Succeeded
	if ok {
		res.DB.Available = true
		res.DB.Statements = statements
		res.DB.StatementsPerRequest = perRequest(float64(statements), out.Succeeded)
	}
}
