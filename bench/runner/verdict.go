package runner

import (
	"fmt"
	"strings"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// Verdict judges a measured run against the SLO: saturated when the
// successful throughput falls under 95% of the target rate or fewer than
// 99% of the requests succeed (it did not hold the rate, so its latencies
// are a queue's length); slow when it held the rate but its p99 (ms) is
// over slo; ok otherwise. The reason says which threshold it missed.
func Verdict(target, throughput, success, p99 float64, slo time.Duration) (verdict, reason string) {
	var why []string
	if throughput < results.MinThroughputShare*target {
		why = append(why, fmt.Sprintf("throughput %.1f/s is under %.0f%% of the %.4g/s target", throughput, 100*results.MinThroughputShare, target))
	}
	if success < results.MinSuccessRatio {
		why = append(why, fmt.Sprintf("success %.2f%% is under %.0f%%", 100*success, 100*results.MinSuccessRatio))
	}
	if len(why) > 0 {
		return results.VerdictSaturated, strings.Join(why, "; ")
	}
	if p99 > ms(slo) {
		return results.VerdictSlow, fmt.Sprintf("p99 %.1f ms is over the %s SLO", p99, slo)
	}
	return results.VerdictOK, ""
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
func judge(out *load.Outcome, attackErr error, rate float64, res results.Result, slo time.Duration) (verdict, reason string) {
	switch {
	case out.Interrupted:
		return results.VerdictSkipped, "interrupted during the run: the partial window is not comparable"
	case attackErr != nil:
		return results.VerdictFailed, attackErr.Error()
	}
	return Verdict(rate, res.Throughput, res.SuccessRatio, res.Latency.P99, slo)
}
