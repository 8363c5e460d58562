package runner

import (
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

// takeCosts sets the app's and PostgreSQL's cost over the attack's
// measured window.
func takeCosts(res *results.Result, out *load.Outcome, series map[string]sampler.Series, app string, pid int) {
	s := out.Summary
	from, to := out.Window.Start, out.Window.End
	if ser, ok := series[app]; ok {
		res.AppCost = processCost(ser.Window(from, to), s.Successes, pid)
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
}
