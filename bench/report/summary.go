package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"crudbench/bench/results"
)

// Summary prints the console summary of run to w: one table per profile
// with a row per scenario × app (target and achieved rate, success, p50 and
// p99, app CPU mean, RSS max, DB statements per request, verdict), then the
// findings. Unmeasured values print as n/a, as in the reports.
func Summary(w io.Writer, run *results.Run) {
	if run == nil {
		return
	}
	l := layoutOf(run)
	for _, p := range l.profiles {
		fmt.Fprintf(w, "\nProfile %s\n", p)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SCENARIO\tAPP\tTARGET\tACHIEVED\tSUCCESS\tP50 ms\tP99 ms\tCPU mean\tRSS max MB\tstmts/req\tVERDICT")
		for _, r := range l.resultsOf(run, p) {
			c := resultCells(r)
			// Pick the summary's columns out of the full table row so the
			// console and the reports can never disagree.
			fmt.Fprintln(tw, strings.Join([]string{c[colScenario], c[colApp], c[colTarget], c[colAchieved], c[colSuccess],
				c[colP50], c[colP99], c[colCPUMean], c[colRSSMax], c[colStmts], c[colVerdict]}, "\t"))
		}
		tw.Flush()
	}
	findings := Findings(run)
	if len(findings) > 0 {
		fmt.Fprintln(w, "\nFindings")
	}
	for _, f := range findings {
		fmt.Fprintf(w, "- %s\n", f)
	}
}
