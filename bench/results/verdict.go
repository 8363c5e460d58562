package results

import "time"

// Verdicts of a measured run.
const (
	VerdictOK        = "ok"        // held the rate, p99 within the SLO
	VerdictSlow      = "slow"      // held the rate, p99 over the SLO
	VerdictSaturated = "saturated" // achieved throughput < 95% of target, or success < 99%
	VerdictFailed    = "failed"    // validation failed: not measured
	VerdictSkipped   = "skipped"   // not run (e.g. interrupted)
)

// DefaultSLOP99 is the p99 latency a run must stay within to be ok, and a
// capacity probe to count as met, unless -slo-p99 says otherwise.
const DefaultSLOP99 = 50 * time.Millisecond

// Thresholds of the verdict, shared by the runner that judges and the
// report that explains: under either, a measured run is saturated.
const (
	MinThroughputShare = 0.95 // successful throughput, as a share of the target rate
	MinSuccessRatio    = 0.99
)
