package runner

import (
	"fmt"
	"slices"

	"crudbench/bench/results"
)

// Verdict judges a measured run: ok, or saturated when the successful
// throughput falls under 95% of the target rate or fewer than 99% of the
// requests succeed. The reason says which.
func Verdict(target, throughput, success float64) (verdict, reason string) {
	var why []string
	if throughput < results.MinThroughputShare*target {
		why = append(why, fmt.Sprintf("throughput %.1f/s is under %.0f%% of the %.4g/s target", throughput, 100*results.MinThroughputShare, target))
	}
	if success < results.MinSuccessRatio {
		why = append(why, fmt.Sprintf("success %.2f%% is under %.0f%%", 100*success, 100*results.MinSuccessRatio))
	}
	if len(why) == 0 {
		return results.VerdictOK, ""
	}
	reason = why[0]
	if len(why) > 1 {
		reason += "; " + why[1]
	}
	return results.VerdictSaturated, reason
}

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
	}
}

// Fold merges the repeats of one (profile, scenario, app) into one Result.
// One repeat is returned as it is. With several, every number is the
// median over the measured repeats, Repeats lists each repeat's key numbers
// and Spread their max − min. Status codes and files come from the repeat
// whose throughput is the median (a real run, not a blend); errors are the
// union of the repeats'. The verdict is judged on the medians, and the
// reason says when some repeats saturated. Repeats that were not measured
// (failed, skipped) are left out; when none was measured the first repeat
// is returned.
func Fold(reps []results.Result) results.Result {
	var measured []results.Result
	for _, r := range reps {
		if r.Measured() {
			measured = append(measured, r)
		}
	}
	switch {
	case len(reps) == 0:
		return results.Result{}
	case len(measured) == 0:
		return reps[0]
	case len(reps) == 1:
		return reps[0]
	}

	med := func(get func(r *results.Result) float64) float64 {
		xs := make([]float64, len(measured))
		for i := range measured {
			xs[i] = get(&measured[i])
		}
		return Median(xs)
	}
	// The representative repeat: the lower median by throughput.
	order := slices.Clone(measured)
	slices.SortStableFunc(order, func(a, b results.Result) int {
		switch {
		case a.Throughput < b.Throughput:
			return -1
		case a.Throughput > b.Throughput:
			return 1
		}
		return 0
	})
	out := order[(len(order)-1)/2]

	out.AchievedRate = med(func(r *results.Result) float64 { return r.AchievedRate })
	out.Throughput = med(func(r *results.Result) float64 { return r.Throughput })
	out.Requests = uint64(med(func(r *results.Result) float64 { return float64(r.Requests) }) + 0.5)
	out.SuccessRatio = med(func(r *results.Result) float64 { return r.SuccessRatio })
	out.Latency = results.Latency{
		Mean: med(func(r *results.Result) float64 { return r.Latency.Mean }),
		P50:  med(func(r *results.Result) float64 { return r.Latency.P50 }),
		P90:  med(func(r *results.Result) float64 { return r.Latency.P90 }),
		P95:  med(func(r *results.Result) float64 { return r.Latency.P95 }),
		P99:  med(func(r *results.Result) float64 { return r.Latency.P99 }),
		Max:  med(func(r *results.Result) float64 { return r.Latency.Max }),
	}
	out.BytesIn = med(func(r *results.Result) float64 { return r.BytesIn })
	out.BytesOut = med(func(r *results.Result) float64 { return r.BytesOut })
	if out.AppCost.Available {
		c := &out.AppCost
		c.CPUMean = med(func(r *results.Result) float64 { return r.AppCost.CPUMean })
		c.CPUMax = med(func(r *results.Result) float64 { return r.AppCost.CPUMax })
		c.CPUMsPerRequest = med(func(r *results.Result) float64 { return r.AppCost.CPUMsPerRequest })
		c.CPUResolutionMsPerRequest = med(func(r *results.Result) float64 { return r.AppCost.CPUResolutionMsPerRequest })
		c.RSSMeanMB = med(func(r *results.Result) float64 { return r.AppCost.RSSMeanMB })
		c.RSSMaxMB = med(func(r *results.Result) float64 { return r.AppCost.RSSMaxMB })
		c.RSSStartMB = med(func(r *results.Result) float64 { return r.AppCost.RSSStartMB })
		c.RSSEndMB = med(func(r *results.Result) float64 { return r.AppCost.RSSEndMB })
	}
	if out.DB.Available {
		out.DB.StatementsPerRequest = med(func(r *results.Result) float64 { return r.DB.StatementsPerRequest })
	}
	if out.DB.CPUAvailable {
		out.DB.CPUMean = med(func(r *results.Result) float64 { return r.DB.CPUMean })
		out.DB.CPUMsPerRequest = med(func(r *results.Result) float64 { return r.DB.CPUMsPerRequest })
		out.DB.RSSMeanMB = med(func(r *results.Result) float64 { return r.DB.RSSMeanMB })
	}

	var errs []string
	saturated := 0
	out.Repeats = nil
	lo, hi := summaryOf(measured[0]), summaryOf(measured[0])
	for _, r := range measured {
		s := summaryOf(r)
		out.Repeats = append(out.Repeats, s)
		lo = bound(lo, s, func(x, y float64) float64 { return min(x, y) })
		hi = bound(hi, s, func(x, y float64) float64 { return max(x, y) })
		for _, e := range r.Errors {
			if !slices.Contains(errs, e) {
				errs = append(errs, e)
			}
		}
		if r.Verdict == results.VerdictSaturated {
			saturated++
		}
	}
	spread := results.RepeatSummary{
		AchievedRate: hi.AchievedRate - lo.AchievedRate,
		Throughput:   hi.Throughput - lo.Throughput,
		SuccessRatio: hi.SuccessRatio - lo.SuccessRatio,
		P50:          hi.P50 - lo.P50,
		P99:          hi.P99 - lo.P99,
		CPUMean:      hi.CPUMean - lo.CPUMean,
		RSSMaxMB:     hi.RSSMaxMB - lo.RSSMaxMB,
	}
	out.Spread = &spread
	out.Errors = errs

	out.Verdict, out.Reason = Verdict(out.TargetRate, out.Throughput, out.SuccessRatio)
	if saturated > 0 {
		note := fmt.Sprintf("%d of %d repeats saturated", saturated, len(measured))
		if out.Reason == "" {
			out.Reason = note
		} else {
			out.Reason += "; " + note
		}
	}
	if len(measured) < len(reps) {
		note := fmt.Sprintf("%d of %d repeats not measured", len(reps)-len(measured), len(reps))
		if out.Reason == "" {
			out.Reason = note
		} else {
			out.Reason += "; " + note
		}
	}
	return out
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
	}
}
