package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"crudbench/bench/results"
)

// Summary prints the console summary of run to w: the bottom line (its
// table and sentences) when there is one, one table per profile with a row
// per scenario × app (target and achieved rate, or a closed loop's clients
// and served rate, success, p50 and p99, app
// CPU mean, RSS max, DB statements per request, verdict), the capacities
// when a search ran, then the findings. Unmeasured values print as n/a, as
// in the reports.
func Summary(w io.Writer, run *results.Run) {
	if run == nil {
		return
	}
	l := layoutOf(run)
	if bl := bottomLineOf(run, l); len(bl.Table.Rows) > 0 {
		fmt.Fprintln(w, "\nBottom line")
		printColumns(w, bl.Table)
		for _, s := range bl.Sentences {
			fmt.Fprintf(w, "- %s\n", s)
		}
	}
	if len(run.Pages) > 0 {
		fmt.Fprintln(w, "\nPages")
		printColumns(w, pagesTable(run, l), 0, 1, 2, 3, 4, 7, 8, 9, 12, 13, 18, 19, 21)
		for _, s := range pageSentences(run, l) {
			fmt.Fprintf(w, "- %s\n", s)
		}
	}
	clients, rates := clientsOf(run), "TARGET\tACHIEVED"
	if clients > 0 {
		rates = "CLIENTS\tSERVED"
	}
	for _, p := range l.profiles {
		if len(l.resultsOf(run, p)) == 0 && len(run.Pages) > 0 {
			continue // a profile of page scenarios alone: Pages has it
		}
		fmt.Fprintf(w, "\nProfile %s\n", profileTitle(run, p))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SCENARIO\tAPP\t"+rates+"\tSUCCESS\tP50 ms\tP99 ms\tCPU mean\tRSS max MB\tstmts/req\tVERDICT")
		for _, r := range l.resultsOf(run, p) {
			c := resultCells(r)
			if clients > 0 {
				c[colTarget] = countText(clients)
			}
			// Pick the summary's columns out of the full table row so the
			// console and the reports can never disagree.
			fmt.Fprintln(tw, strings.Join([]string{c[colScenario], c[colApp], c[colTarget], c[colAchieved], c[colSuccess],
				c[colP50], c[colP99], c[colCPUMean], c[colRSSMax], c[colStmts], c[colVerdict]}, "\t"))
		}
		tw.Flush()
	}
	if len(run.Capacities) > 0 {
		fmt.Fprintln(w, "\nCapacity")
		t := capacityTable(run, l)
		printColumns(w, t, 0, 1, 2, 4, 5, 6)
	}
	findings := Findings(run)
	if len(findings) > 0 {
		fmt.Fprintln(w, "\nFindings")
	}
	for _, f := range findings {
		fmt.Fprintf(w, "- %s\n", f)
	}
}

// printColumns prints the given columns of t (all of them when none are
// given) as an aligned console table, so the console shows the reports'
// own cells.
func printColumns(w io.Writer, t table, cols ...int) {
	if len(cols) == 0 {
		for i := range t.Header {
			cols = append(cols, i)
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pick := func(cells []string) string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = cells[c]
		}
		return strings.Join(out, "\t")
	}
	fmt.Fprintln(tw, pick(t.Header))
	for _, r := range t.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.Text
		}
		fmt.Fprintln(tw, pick(cells))
	}
	tw.Flush()
}
