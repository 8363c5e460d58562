package runner

import (
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// judge gives a measured run its verdict: a window cut short by Ctrl-C is
// not comparable, an attack that ended in an error failed, and anything
// else is judged on its numbers against the SLO.
func judge(res *results.Result, out *load.Outcome, attackErr error, slo time.Duration) {
	switch {
	case out.Interrupted:
		res.Verdict, res.Reason = results.VerdictSkipped, "interrupted during the run: the partial window is not comparable"
	case attackErr != nil:
		res.Verdict, res.Reason = results.VerdictFailed, attackErr.Error()
	default:
		res.Judge(slo)
	}
}
