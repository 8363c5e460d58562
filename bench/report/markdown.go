package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/results"
)

// markdown renders report.md.
func markdown(run *results.Run) []byte {
	var b bytes.Buffer
	l := layoutOf(run)
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	p("# crudbench report\n\n")
	p("%s\n\n", runLine(run))

	writeMDBottomLine(&b, bottomLineOf(run, l))
	writeMDApps(&b, run)

	p("## How to read this\n\n")
	for _, para := range howToRead(run) {
		p("%s\n\n", para)
	}

	writeMDFindings(&b, Findings(run))
	writeMDPages(&b, run, l)

	writeMDCapacity(&b, run, l)
	writeMDResults(&b, run, l)
	writeMDProfiles(&b, profiledRuns(run, l))
	writeMDFacts(&b, run)
	writeMDPauses(&b, run, l)
	writeMDErrors(&b, run, l)
	writeMDValidation(&b, run, l)
	writeMDEnvironment(&b, run, l)
	writeMDCost(&b, run)
	writeMDNotes(&b, run)
	writeMDFiles(&b, run, l)
	return b.Bytes()
}

// writeMDResults writes each profile's results table, and its spread
// across repeats when the runs were repeated.
func writeMDResults(b *bytes.Buffer, run *results.Run, l layout) {
	for _, prof := range l.profiles {
		rs := l.resultsOf(run, prof)
		if len(rs) == 0 && len(run.Pages) > 0 {
			continue // a profile of page scenarios alone: the Pages section has it
		}
		fmt.Fprintf(b, "## Results: %s\n\n", mdText(profileTitle(run, prof)))
		writeMDTable(b, resultTable(rs, clientsOf(run)))
		if bt := brokerTable(rs); len(bt.Rows) > 0 {
			fmt.Fprintf(b, "### The broker: %s\n\n", mdText(prof))
			writeMDTable(b, bt)
		}
		if hasRepeats(run) {
			fmt.Fprintf(b, "### Spread across repeats: %s (max − min)\n\n", mdText(prof))
			writeMDTable(b, spreadTable(rs))
		}
	}
}

// writeMDErrors writes the failed requests of the measured runs.
func writeMDErrors(b *bytes.Buffer, run *results.Run, l layout) {
	b.WriteString("## Request errors\n\n")
	if et := errorTable(run, l); len(et.Rows) > 0 {
		writeMDTable(b, et)
	} else {
		b.WriteString("No failed requests in any measured run.\n\n")
	}
}

// writeMDValidation writes which app passed which scenario's checks, and
// the failed checks.
func writeMDValidation(b *bytes.Buffer, run *results.Run, l layout) {
	b.WriteString("## Validation\n\n")
	if len(run.Validations) == 0 {
		b.WriteString("No validation was recorded.\n\n")
		return
	}
	writeMDTable(b, validationMatrix(run, l))
	if vf := validationFailures(run); len(vf.Rows) > 0 {
		b.WriteString("Failed checks (these runs were not measured):\n\n")
		writeMDTable(b, vf)
	}
}

// writeMDEnvironment writes the machine, the settings and the target
// rates.
func writeMDEnvironment(b *bytes.Buffer, run *results.Run, l layout) {
	b.WriteString("## Environment\n\n")
	writeMDTable(b, environmentTable(run))
	b.WriteString("### Settings\n\n")
	writeMDTable(b, settingsTable(run))
	if rt := ratesTable(run, l); len(rt.Rows) > 0 {
		b.WriteString("### Target rates (req/s)\n\n")
		writeMDTable(b, rt)
	}
}

// writeMDCost writes what the load generator and the sampler cost.
func writeMDCost(b *bytes.Buffer, run *results.Run) {
	b.WriteString("## Load generator and sampler\n\n")
	for _, line := range costLines(run) {
		fmt.Fprintf(b, "- %s\n", mdText(line))
	}
	b.WriteString("\n")
}

// writeMDNotes writes the run's notes.
func writeMDNotes(b *bytes.Buffer, run *results.Run) {
	b.WriteString("## Notes\n\n")
	if len(run.Notes) == 0 {
		b.WriteString("None.\n\n")
	}
	for _, n := range run.Notes {
		fmt.Fprintf(b, "- %s\n", mdText(n))
	}
	if len(run.Notes) > 0 {
		b.WriteString("\n")
	}
}

// writeMDFiles writes where the raw results and samples are and how to
// read them.
func writeMDFiles(b *bytes.Buffer, run *results.Run, l layout) {
	b.WriteString("## Files\n\n")
	b.WriteString("Raw results are in vegeta's own encoding: `vegeta report FILE` prints its summary and `vegeta plot FILE > plot.html` charts every request. Samples are the CPU and memory readings of each app over the run.\n\n")
	if ft := filesTable(run, l); len(ft.Rows) > 0 {
		writeMDTable(b, ft)
	} else {
		b.WriteString("No files were recorded.\n\n")
	}
}

// writeMDBottomLine writes the bottom line, when there is one: its
// sentences, its table and how it picked its runs.
func writeMDBottomLine(b *bytes.Buffer, bl bottomLine) {
	if len(bl.Table.Rows) == 0 && len(bl.Pages) == 0 {
		return
	}
	b.WriteString("## Bottom line\n\n")
	for _, s := range slices.Concat(bl.Sentences, bl.Pages) {
		b.WriteString("- " + mdText(s) + "\n")
	}
	if len(bl.Sentences)+len(bl.Pages) > 0 {
		b.WriteString("\n")
	}
	if len(bl.Table.Rows) == 0 {
		return
	}
	writeMDTable(b, bl.Table)
	b.WriteString(mdText(basisRule+" "+bl.Sources) + "\n\n")
}

// writeMDFindings writes the findings as a list.
func writeMDFindings(b *bytes.Buffer, findings []string) {
	b.WriteString("## Findings\n\n")
	if len(findings) == 0 {
		b.WriteString("No measured results to compare.\n\n")
		return
	}
	for _, f := range findings {
		b.WriteString("- " + mdText(f) + "\n")
	}
	b.WriteString("\n")
}

// writeMDCapacity writes the capacity searches and all their probes, when
// a search ran.
func writeMDCapacity(b *bytes.Buffer, run *results.Run, l layout) {
	if len(run.Capacities) == 0 {
		return
	}
	b.WriteString("## Capacity\n\n" + mdText(capacityHowTo(run)) + "\n\n")
	writeMDTable(b, capacityTable(run, l))
	if pt := probesCompact(run, l); len(pt.Rows) > 0 {
		b.WriteString("### Capacity probes\n\n")
		writeMDTable(b, pt)
	}
}

// writeMDFacts writes the stack facts, when they were taken.
func writeMDFacts(b *bytes.Buffer, run *results.Run) {
	if len(run.Stacks) == 0 {
		return
	}
	b.WriteString("## Stack facts\n\n" + factsHowTo(run) + "\n\n")
	writeMDTable(b, factsTable(run))
}

// writeMDProfiles writes where the CPU went: every profiled run's layer
// shares in one table, then each run's top functions.
func writeMDProfiles(b *bytes.Buffer, runs []profiled) {
	if len(runs) == 0 {
		return
	}
	b.WriteString("## Where the CPU goes\n\n" + mdText(profilesHowTo) + "\n\n")
	writeMDTable(b, layerTable(runs))
	for _, pr := range runs {
		p := pr.r.CPUProfile
		fmt.Fprintf(b, "### Top functions: %s\n\n", mdText(pr.label))
		writeMDTable(b, topTable(p))
		fmt.Fprintf(b, "Profile: [%s](%s) — the whole of it: `%s`\n\n", mdText(p.File), mdLink(p.File), pprofHint(p.File))
	}
}

// runLine is the one-line identity of a run under the title.
func runLine(run *results.Run) string {
	parts := []string{"Run of " + timeText(run.StartedAt)}
	if !run.StartedAt.IsZero() && !run.FinishedAt.IsZero() {
		parts = append(parts, "took "+run.FinishedAt.Sub(run.StartedAt).Round(1e9).String())
	}
	if m := run.Environment.Mode; m != "" {
		parts = append(parts, "mode "+m)
	}
	if n := clientsOf(run); n > 0 {
		parts = append(parts, fmt.Sprintf("load a closed loop of %d client(s)", n))
	}
	if c := run.Environment.GitCommit; c != "" {
		parts = append(parts, "commit "+c)
	}
	return mdText(strings.Join(parts, ", ") + ".")
}

func writeMDTable(b *bytes.Buffer, t table) {
	b.WriteString("|")
	for _, h := range t.Header {
		b.WriteString(" " + mdCell(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.Header {
		if i < len(t.Right) && t.Right[i] {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, c := range r.Cells {
			text := mdCell(c.Text)
			if c.Href != "" {
				text = "[" + text + "](" + mdLink(c.Href) + ")"
			}
			b.WriteString(" " + text + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// mdText keeps free text on one line and stops a "<" in it (an error
// message quoting HTML) from being rendered as a tag. The Markdown is read
// as plain text as often as it is rendered, so nothing else is escaped.
func mdText(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "<", `\<`)
}

// mdCell also escapes the column separator.
func mdCell(s string) string { return strings.ReplaceAll(mdText(s), "|", `\|`) }

// mdLink wraps a path in angle brackets when it would end the link early.
func mdLink(p string) string {
	if strings.ContainsAny(p, " ()<>") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(p) + ">"
	}
	return p
}
