package diff

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the comparison as aligned text, one table per metric,
// the way benchstat lays out its tables.
func (r Report) WriteText(w io.Writer, oldName, newName string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "old: %s\nnew: %s\n", oldName, newName)
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "note: %s\n", warn)
	}
	for _, m := range r.metrics() {
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "%s (%s)\told\tnew\tdelta\t\n", m.Name, m.Unit)
		for _, row := range r.Rows {
			if row.Metric == m {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", row.Key, figure(row.Old, row.OldBound), figure(row.New, row.NewBound), row.Mark(), row.test(r.Options))
			}
		}
		tw.Flush()
	}
	if len(r.Changes) > 0 {
		b.WriteString("\nchanged runs:\n")
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "  %s: %s\n", c.Key, c.What)
		}
	}
	b.WriteString("\n" + r.verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the comparison as markdown tables, to paste into a
// pull request or a decision document.
func (r Report) WriteMarkdown(w io.Writer, oldName, newName string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## bench diff\n\nOld: `%s`  \nNew: `%s`\n\n", oldName, newName)
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "> %s\n\n", warn)
	}
	for _, m := range r.metrics() {
		fmt.Fprintf(&b, "### %s (%s)\n\n| run | old | new | delta | test |\n|---|--:|--:|--:|---|\n", m.Name, m.Unit)
		for _, row := range r.Rows {
			if row.Metric == m {
				mark := row.Mark()
				if row.Regressed || row.Improved {
					mark = "**" + mark + "**"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", row.Key, figure(row.Old, row.OldBound), figure(row.New, row.NewBound), mark, row.test(r.Options))
			}
		}
		b.WriteString("\n")
	}
	if len(r.Changes) > 0 {
		b.WriteString("### Changed runs\n\n")
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "- %s: %s\n", c.Key, c.What)
		}
		b.WriteString("\n")
	}
	b.WriteString(r.verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// metrics lists the metrics the rows hold, in the order of their first row.
func (r Report) metrics() []Metric {
	var ms []Metric
	seen := map[Metric]bool{}
	for _, row := range r.Rows {
		if !seen[row.Metric] {
			seen[row.Metric] = true
			ms = append(ms, row.Metric)
		}
	}
	return ms
}

// test says what stands behind a row's mark: the p-value and the sizes of
// the samples, or that there was nothing to test.
func (row Row) test(opt Options) string {
	note := ""
	switch {
	case row.Regressed:
		note = " regressed"
	case row.Improved:
		note = " improved"
	}
	note += row.bounds()
	if !row.Tested {
		return fmt.Sprintf("n=%d+%d, not tested%s", row.OldN, row.NewN, note)
	}
	return fmt.Sprintf("p=%.3f n=%d+%d (%s)%s", row.P, row.OldN, row.NewN, testName(opt.Test), note)
}

// bounds names the sides of a row whose figure is a lower bound:
// "; old a lower bound (machine-bound: postgres-cpu)".
func (row Row) bounds() string {
	var sides []string
	for _, s := range []struct{ name, reason string }{{"old", row.OldBound}, {"new", row.NewBound}} {
		if s.reason != "" {
			sides = append(sides, s.name+" a lower bound (machine-bound: "+s.reason+")")
		}
	}
	if len(sides) == 0 {
		return ""
	}
	return "; " + strings.Join(sides, ", ")
}

// testName is the name a reader knows a test by.
func testName(test string) string {
	if test == TestT {
		return "Welch t"
	}
	return "U test"
}

// verdict is the summary line: the regressions, or that there are none.
func (r Report) verdict() string {
	regs := r.Regressions()
	if len(regs) == 0 {
		return fmt.Sprintf("No regression past %.0f%%.", 100*r.Options.Threshold)
	}
	return fmt.Sprintf("%d regression(s) past %.0f%%: %s.", len(regs), 100*r.Options.Threshold, strings.Join(regs, "; "))
}

// figure is number(v), after "≥ " when it is a lower bound (bound, the
// reason of a machine-bound capacity, is set).
func figure(v float64, bound string) string {
	if bound != "" {
		return "≥ " + number(v)
	}
	return number(v)
}

// number formats a figure with three significant digits or whole units.
func number(v float64) string {
	switch {
	case v >= 100 || v <= -100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10 || v <= -10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3g", v)
}
