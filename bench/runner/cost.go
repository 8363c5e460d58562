package runner

import (
	"math"
	"os"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// selfUsage is the runner's own cost over one attack, read from getrusage
// and /proc/self rather than sampled, so it adds nothing to the sampler's
// cost.
type selfUsage struct {
	cpu, wall        time.Duration
	rssStart, rssEnd uint64 // bytes
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
		CPUSeconds:      st.CPUSeconds,
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
	c.CPUSeconds = attackCPU.Seconds()
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

// takeCosts sets the app's and PostgreSQL's cost over the attack's
// measured window, the app's from its sources. It returns the URLs of the
// app's replicas that could not be read over the window, which leave the
// app's cost unavailable (a sum without them would be too low).
func takeCosts(res *results.Result, out *load.Outcome, series map[string]sampler.Series, src sources) (unread []string) {
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
			}
		}
	}
	if ser, ok := series[targetPostgres]; ok {
		// Sampled once a second, PostgreSQL may have a single sample in a
		// short window: its CPU rate is taken over the samples around the
		// window and applied to the window's length.
		st := ser.Window(ser.Around(from, to))
		if st.Samples >= 2 {
			res.DB.CPUAvailable = true
			res.DB.CPUMean = st.CPUMean
			res.DB.CPUSeconds = st.CPUMean * to.Sub(from).Seconds()
			res.DB.CPUMsPerRequest = perRequest(res.DB.CPUSeconds*1000, s.Successes)
			res.DB.RSSMeanMB = float64(st.RSSMeanBytes) / results.BytesPerMB
		}
	}
	return unread
}

// appCost is the app's ProcessCost over the window from to to. From /proc,
// sampled ten times a second, it is the window's own samples; from
// metrics, scraped once a second, the scrapes around the window, their CPU
// time scaled to the window's length as PostgreSQL's is.
func appCost(ser sampler.Series, src sources, from, to time.Time, successes uint64) results.ProcessCost {
	if src.cpu == results.SourceProc {
		c := processCost(ser.Window(from, to), successes, src.pid)
		if c.Available {
			c.Source = src.cpu
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
