package runner

import (
	"fmt"

	"crudbench/bench/load"
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

// withNote appends note to a reason, so a folded verdict keeps the reason
// judged on the medians and still says what the repeats did.
func withNote(reason, note string) string {
	if reason == "" {
		return note
	}
	return reason + "; " + note
}

// judge gives a measured run its verdict: a window cut short by Ctrl-C is
// not comparable, an attack that ended in an error failed, and anything
// else is judged on its numbers by Verdict.
func judge(out *load.Outcome, attackErr error, rate float64, res results.Result) (verdict, reason string) {
	switch {
	case out.Interrupted:
		return results.VerdictSkipped, "interrupted during the run: the partial window is not comparable"
	case attackErr != nil:
		return results.VerdictFailed, attackErr.Error()
	}
	return Verdict(rate, res.Throughput, res.SuccessRatio)
}
