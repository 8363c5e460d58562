package capacity

import (
	"context"

	"crudbench/bench/results"
)

// ConfirmFunc measures one full-length run at rate, the try-th
// confirmation of a search (1 for the first).
type ConfirmFunc func(ctx context.Context, rate float64, try int) results.Result

// Confirmed is what the confirmation runs of a search said.
type Confirmed struct {
	// Rate is the rate the capacity stands on: the highest a confirmation
	// held, or the probes' when none did.
	Rate float64
	// Run is the confirmation at Rate; Held says whether it met the SLO.
	Run  results.Result
	Held bool
	// Missed are the other confirmations, in the order they ran: at higher
	// rates than Run's when one held, at lower ones when none did.
	Missed []results.Result
}

// Confirm runs confirmations from found down by ConfirmStep until one
// meets slo, one is not measured (it failed, or ctx ended), or
// MaxConfirmations have run. A confirmation is judged by the probes' rule
// (results.SLO.Judge), not by its verdict: a run whose verdict is ok at
// 96% of its rate lost requests a capacity must not lose. When none held,
// the capacity stays the probes' rate, marked as not held, and its run is
// the first confirmation, at that rate.
func Confirm(ctx context.Context, slo results.SLO, found float64, run ConfirmFunc) Confirmed {
	var runs []results.Result
	rate := found
	for try := 1; try <= MaxConfirmations; try++ {
		res := run(ctx, rate, try)
		if res.Measured() && slo.JudgeRun(&res).Met {
			return Confirmed{Rate: rate, Run: res, Held: true, Missed: runs}
		}
		if !res.Measured() {
			// Interrupted or failed: no verdict on this rate. Only a
			// first run stands for the capacity's confirmation, as "not
			// run"; a later one is no run at all.
			if try == 1 {
				runs = append(runs, res)
			}
			break
		}
		runs = append(runs, res)
		if ctx.Err() != nil {
			break
		}
		rate *= ConfirmStep
	}
	return Confirmed{Rate: found, Run: runs[0], Missed: runs[1:]}
}
