package results

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Median returns the median of xs (the mean of the middle two for an even
// count), 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Fold merges the repeats of one (profile, scenario, app) into one Result.
// One repeat is returned as it is. With several, every number is the
// median over the measured repeats, Repeats lists each repeat's key numbers
// and Spread their max − min. Status codes and files come from the repeat
// whose throughput is the median (a real run, not a blend); errors are the
// union of the repeats'. The verdict is judged on the medians against
// slo, and the reason says when some repeats saturated. Repeats that were not measured
// (failed, skipped) are left out; when none was measured the first repeat
// is returned.
func Fold(reps []Result, slo time.Duration) Result {
	var measured []Result
	for _, r := range reps {
		if r.Measured() {
			measured = append(measured, r)
		}
	}
	switch {
	case len(reps) == 0:
		return Result{}
	case len(measured) == 0:
		return reps[0]
	case len(reps) == 1:
		return reps[0]
	}

	out := representative(measured)
	takeMedians(&out, measured)

	rs := collectRepeats(measured)
	out.Repeats = rs.summaries
	out.Spread = &rs.spread
	out.Errors = rs.errors

	out.Judge(slo)
	if rs.saturated > 0 {
		out.Reason = withNote(out.Reason, fmt.Sprintf("%d of %d repeats saturated", rs.saturated, len(measured)))
	}
	if len(measured) < len(reps) {
		out.Reason = withNote(out.Reason, fmt.Sprintf("%d of %d repeats not measured", len(reps)-len(measured), len(reps)))
	}
	return out
}

// representative is the repeat a folded result starts from — the lower
// median by throughput — so its status codes and files belong to one real
// run.
func representative(measured []Result) Result {
	order := slices.Clone(measured)
	slices.SortStableFunc(order, func(a, b Result) int { return cmp.Compare(a.Throughput, b.Throughput) })
	return order[(len(order)-1)/2]
}

// takeMedians sets every number of out to its median over the measured
// repeats; costs out's representative could not measure stay unavailable.
func takeMedians(out *Result, measured []Result) {
	med := func(get func(r *Result) float64) float64 {
		xs := make([]float64, len(measured))
		for i := range measured {
			xs[i] = get(&measured[i])
		}
		return Median(xs)
	}
	out.AchievedRate = med(func(r *Result) float64 { return r.AchievedRate })
	out.Throughput = med(func(r *Result) float64 { return r.Throughput })
	out.Requests = uint64(med(func(r *Result) float64 { return float64(r.Requests) }) + 0.5)
	out.SuccessRatio = med(func(r *Result) float64 { return r.SuccessRatio })
	out.Latency = Latency{
		Mean: med(func(r *Result) float64 { return r.Latency.Mean }),
		P50:  med(func(r *Result) float64 { return r.Latency.P50 }),
		P90:  med(func(r *Result) float64 { return r.Latency.P90 }),
		P95:  med(func(r *Result) float64 { return r.Latency.P95 }),
		P99:  med(func(r *Result) float64 { return r.Latency.P99 }),
		Max:  med(func(r *Result) float64 { return r.Latency.Max }),
	}
	out.BytesIn = med(func(r *Result) float64 { return r.BytesIn })
	out.BytesOut = med(func(r *Result) float64 { return r.BytesOut })
	if out.AppCost.Available {
		c := &out.AppCost
		c.CPUMean = med(func(r *Result) float64 { return r.AppCost.CPUMean })
		c.CPUMax = med(func(r *Result) float64 { return r.AppCost.CPUMax })
		c.CPUMsPerRequest = med(func(r *Result) float64 { return r.AppCost.CPUMsPerRequest })
		c.CPUResolutionMsPerRequest = med(func(r *Result) float64 { return r.AppCost.CPUResolutionMsPerRequest })
		c.RSSMeanMB = med(func(r *Result) float64 { return r.AppCost.RSSMeanMB })
		c.RSSMaxMB = med(func(r *Result) float64 { return r.AppCost.RSSMaxMB })
		c.RSSStartMB = med(func(r *Result) float64 { return r.AppCost.RSSStartMB })
		c.RSSEndMB = med(func(r *Result) float64 { return r.AppCost.RSSEndMB })
	}
	if out.DB.Available {
		out.DB.StatementsPerRequest = med(func(r *Result) float64 { return r.DB.StatementsPerRequest })
	}
	if out.DB.CPUAvailable {
		out.DB.CPUMean = med(func(r *Result) float64 { return r.DB.CPUMean })
		out.DB.CPUMsPerRequest = med(func(r *Result) float64 { return r.DB.CPUMsPerRequest })
		out.DB.RSSMeanMB = med(func(r *Result) float64 { return r.DB.RSSMeanMB })
	}
}

// summaryOf picks a repeat's key numbers.
func summaryOf(r Result) RepeatSummary {
	return RepeatSummary{
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
	summaries []RepeatSummary
	spread    RepeatSummary
	errors    []string
	saturated int
}

// collectRepeats gathers repeatsOf over the measured repeats (at least one).
func collectRepeats(measured []Result) repeatsOf {
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
		if r.Verdict == VerdictSaturated {
			rs.saturated++
		}
	}
	rs.spread = RepeatSummary{
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
func bound(a, b RepeatSummary, pick func(x, y float64) float64) RepeatSummary {
	return RepeatSummary{
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

// withNote appends note to a reason, so a folded verdict keeps the reason
// judged on the medians and still says what the repeats did.
func withNote(reason, note string) string {
	if reason == "" {
		return note
	}
	return reason + "; " + note
}
