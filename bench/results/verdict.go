package results

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Verdicts of a measured run.
const (
	VerdictOK        = "ok"        // held the rate, p99 within the SLO
	VerdictSlow      = "slow"      // held the rate, p99 over the SLO
	VerdictSaturated = "saturated" // did not hold the rate: see HoldsRate
	VerdictFailed    = "failed"    // validation failed: not measured
	VerdictSkipped   = "skipped"   // not run (e.g. interrupted)
)

// DefaultSLOP99 is the p99 latency a run must stay within to be ok, and a
// capacity probe to count as met, unless -slo-p99 says otherwise.
const DefaultSLOP99 = 50 * time.Millisecond

// Thresholds of the verdict: under either, a measured run is saturated.
// They live here, beside the words that explain them, so that the runner
// that judges, the merge that judges again and the report that explains
// cannot drift apart.
const (
	MinThroughputShare = 0.95 // successful throughput, as a share of the target rate
	MinSuccessRatio    = 0.99
)

// HoldsRate reports whether a run (or a capacity probe) kept up with its
// target rate: its successful throughput is at least MinThroughputShare of
// the target and at least MinSuccessRatio of its requests succeeded. Only
// then are its latencies the app's rather than the length of a queue.
func HoldsRate(target, throughput, success float64) bool {
	return len(rateMisses(target, throughput, success)) == 0
}

// Judge sets r's verdict and reason from its numbers against the SLO:
// saturated when it did not hold its rate (HoldsRate), slow when it held
// the rate but its p99 is over slo, ok otherwise.
func (r *Result) Judge(slo time.Duration) {
	switch {
	case !HoldsRate(r.TargetRate, r.Throughput, r.SuccessRatio):
		r.Verdict = VerdictSaturated
	case r.Latency.P99 > float64(slo)/float64(time.Millisecond):
		r.Verdict = VerdictSlow
	default:
		r.Verdict = VerdictOK
	}
	r.Reason = r.Explain(slo)
}

// Explain says why r's verdict is not ok, naming the threshold it missed
// with its numbers; "" for ok and for a verdict that has no numbers behind
// it. slo is the SLO r was judged against, 0 when not known (the words then
// leave its value out).
func (r *Result) Explain(slo time.Duration) string {
	switch r.Verdict {
	case VerdictSaturated:
		return strings.Join(rateMisses(r.TargetRate, r.Throughput, r.SuccessRatio), "; ")
	case VerdictSlow:
		if slo <= 0 {
			return fmt.Sprintf("p99 %.1f ms is over the SLO", r.Latency.P99)
		}
		return fmt.Sprintf("p99 %.1f ms is over the %s SLO", r.Latency.P99, slo)
	}
	return ""
}

// rateMisses names each threshold of HoldsRate that a run missed.
func rateMisses(target, throughput, success float64) []string {
	var why []string
	if throughput < MinThroughputShare*target {
		why = append(why, fmt.Sprintf("throughput %.1f/s is under %.0f%% of the %.4g/s target", throughput, 100*MinThroughputShare, target))
	}
	if success < MinSuccessRatio {
		why = append(why, fmt.Sprintf("success %.2f%% is under %.0f%%", 100*success, 100*MinSuccessRatio))
	}
	return why
}

// VerdictRule explains the verdicts to a reader of the report, with the
// SLO the run was judged against; slo 0 (a version 1 file, which judged no
// latency) explains a rule without slow.
func VerdictRule(slo Duration) string {
	held := fmt.Sprintf("throughput is at least %.0f%% of the target and at least %.0f%% of requests succeed", 100*MinThroughputShare, 100*MinSuccessRatio)
	end := "failed means the scenario failed its validation before load and was not measured; skipped means it was not run."
	if slo <= 0 {
		return "Verdict: ok when " + held + "; otherwise saturated — the app, or the machine, could not keep up at that rate. " + end
	}
	return "Verdict: a run held its rate when " + held + ". ok: it held the rate with p99 latency within the SLO of " +
		strconv.FormatFloat(float64(slo)/float64(time.Millisecond), 'f', -1, 64) + " ms; " +
		"slow: it held the rate but its p99 was over the SLO; saturated: it did not hold the rate — the app, or the machine, could not keep up, so requests queued. " +
		"The latencies of a saturated run are the length of that queue, not the app's speed: findings never compare them and report throughput instead. " + end
}
