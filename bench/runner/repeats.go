package runner

import (
	"slices"

	"crudbench/bench/results"
)

// summaryOf picks a repeat's key numbers.
func summaryOf(r results.Result) results.RepeatSummary {
	return results.RepeatSummary{
		AchievedRate: r.AchievedRate,
		Throughput:   r.Throughput,
		SuccessRatio: r.SuccessRatio,
		P50:          r.Latency.P50,
		P99:          r.Latency.P99,
		CPUMean:      r.AppCost.CPUMean,
		RSSMaxMB:     r.AppCost.RSSMaxMB,
		// What bench diff compares a repeat's CPU by.
		CPUMsPerRequest: r.AppCost.CPUMsPerRequest,
	}
}

// repeatsOf is what a folded result shows of its repeats besides the
// medians: each repeat's key numbers, their spread (max − min), the union
// of their errors, and how many saturated.
type repeatsOf struct {
	summaries []results.RepeatSummary
	spread    results.RepeatSummary
	errors    []string
	saturated int
}

// collectRepeats gathers repeatsOf over the measured repeats (at least one).
func collectRepeats(measured []results.Result) repeatsOf {
	var rs repeatsOf
	lo, hi := summaryOf(measured[0]), summaryOf(measured[0])
	for _, r := range measured {
		s := summaryOf(r)
		rs.summaries = append(rs.summaries, s)
		lo = bound(lo, s, func(x, y float64) float64 { return min(x, y) })
		hi = bound(hi, s, func(x, y float64) float64 { return max(x, y) })
		for _, e := range r.Errors {
			if !slices.Contains(rs.errors, e) {
				rs.errors = append(rs.errors, e)
			}
		}
		if r.Verdict == results.VerdictSaturated {
			rs.saturated++
		}
	}
	rs.spread = results.RepeatSummary{
		AchievedRate: hi.AchievedRate - lo.AchievedRate,
		Throughput:   hi.Throughput - lo.Throughput,
		SuccessRatio: hi.SuccessRatio - lo.SuccessRatio,
		P50:          hi.P50 - lo.P50,
		P99:          hi.P99 - lo.P99,
		CPUMean:      hi.CPUMean - lo.CPUMean,
		RSSMaxMB:     hi.RSSMaxMB - lo.RSSMaxMB,

		CPUMsPerRequest: hi.CPUMsPerRequest - lo.CPUMsPerRequest,
	}
	return rs
}

// bound combines two summaries field by field with pick (min or max).
func bound(a, b results.RepeatSummary, pick func(x, y float64) float64) results.RepeatSummary {
	return results.RepeatSummary{
		AchievedRate: pick(a.AchievedRate, b.AchievedRate),
		Throughput:   pick(a.Throughput, b.Throughput),
		SuccessRatio: pick(a.SuccessRatio, b.SuccessRatio),
		P50:          pick(a.P50, b.P50),
		P99:          pick(a.P99, b.P99),
		CPUMean:      pick(a.CPUMean, b.CPUMean),
		RSSMaxMB:     pick(a.RSSMaxMB, b.RSSMaxMB),

		CPUMsPerRequest: pick(a.CPUMsPerRequest, b.CPUMsPerRequest),
	}
}
