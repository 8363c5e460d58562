package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// written writes the reports of run to a fresh folder and returns it.
func written(t *testing.T, run *results.Run) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "results")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeSamples(t, dir, run)
	if err := results.Write(dir, run); err != nil {
		t.Fatalf("results.Write: %v", err)
	}
	if err := report.Write(dir, run); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteReadRoundTrip(t *testing.T) {
	run := newRun(t)
	dir := written(t, run)
	for _, f := range []string{report.MarkdownFile, report.HTMLFile, results.JSONFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: not written (%v)", f, err)
		}
	}
	got, err := results.Read(filepath.Join(dir, results.JSONFile))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if diff := cmp.Diff(run, got); diff != "" {
		t.Errorf("results.json round trip (-want +got):\n%s", diff)
	}
}

func TestWriteEmptyRun(t *testing.T) {
	dir := t.TempDir()
	if err := report.Write(dir, &results.Run{}); err != nil {
		t.Fatalf("Write of an empty run: %v", err)
	}
	if md := readFile(t, filepath.Join(dir, report.MarkdownFile)); !strings.Contains(md, "No measured results to compare.") {
		t.Errorf("report.md of an empty run does not say so:\n%s", md)
	}
	checkBalanced(t, readFile(t, filepath.Join(dir, report.HTMLFile)))
	var b strings.Builder
	report.Summary(&b, &results.Run{})
	if b.Len() != 0 {
		t.Errorf("Summary of an empty run printed %q", b.String())
	}
}

func TestMarkdown(t *testing.T) {
	run := newRun(t)
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))

	for _, want := range []string{
		"# crudbench report",
		"## How to read this",
		"## Findings",
		"## Results: light",
		"## Results: high",
		"## Validation",
		"## Environment",
		"AMD EPYC 7B13 64-Core Processor",
		"PostgreSQL 15.8",
		"appointment 1,512",
		"Sampler overhead: 0.32% of one core",
		run.Notes[0],
		"[raw/light-read-one-rest.bin](raw/light-read-one-rest.bin)",
		"| write | htmx | " + strings.ReplaceAll(validationProblem, "<", `\<`) + " |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	// Every result has its row in its profile's table.
	for _, p := range profiles {
		section := between(md, "## Results: "+p+"\n", "\n## ")
		for _, r := range run.Results {
			if r.Profile != p {
				continue
			}
			prefix := fmt.Sprintf("| %s | %s | %s |", r.Scenario, r.App, strings.TrimSuffix(fmt.Sprint(r.TargetRate), ".0"))
			if !strings.Contains(section, prefix) {
				t.Errorf("%s table lacks the row of %s/%s (%q)", p, r.Scenario, r.App, prefix)
			}
		}
	}
	for name, row := range map[string]string{
		"saturated":  "| read-one | htmx | 1200 | 1199.9 | 850.0 | 99.75% | 850 | 1900 | 3100 | 5200 | 4,210 | 36.0% | 50.4% | 0.30 | n/a | 24.5 | 27.5 | 4.00 | 12.0% | saturated: throughput 71% of target |",
		"no app CPU": "| read-many | graphql | 20 | 19.9 | 19.9 | 100.00% | 25.0 | 50.0 | 100 | 300 | 84,200 | n/a | n/a | n/a | n/a | n/a | n/a | 4.00 | 12.0% | ok |",
		"no DB CPU":  "| read-many | rest | 20 | 19.9 | 19.9 | 100.00% | 10.0 | 20.0 | 40.0 | 120 | 84,200 | 8.0% | 11.2% | 4.00 | n/a | 24.5 | 27.5 | 4.00 | n/a | ok |",
		"failed":     "| write | htmx | 20 | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | failed: validation failed |",
		"skipped":    "| read-small | rest | 1200 | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | skipped: interrupted |",
	} {
		if !strings.Contains(md, row) {
			t.Errorf("report.md lacks the %s row:\n%s", name, row)
		}
	}
	for _, f := range report.Findings(run) {
		// Markdown escapes "<" so quoted HTML is not rendered as a tag.
		if !strings.Contains(md, strings.ReplaceAll(f, "<", `\<`)) {
			t.Errorf("report.md lacks the finding %q", f)
		}
	}
}

func TestCPUPerRequestBelowResolution(t *testing.T) {
	run := newRun(t)
	// htmx's readings may be off by 0.004 ms a request: its 0.001 ms cannot
	// be told from zero. graphql's 0.0042 ms stands above its resolution and
	// keeps the digits that say so.
	h := find(t, run, "light", "read-one", "htmx")
	h.AppCost.CPUMsPerRequest, h.AppCost.CPUResolutionMsPerRequest = 0.001, 0.004
	g := find(t, run, "light", "read-one", "graphql")
	g.AppCost.CPUMsPerRequest, g.AppCost.CPUResolutionMsPerRequest = 0.0042, 0.0001
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	section := between(md, "## Results: light\n", "\n## ")
	for app, cell := range map[string]string{"htmx": `| below resolution (\< 0.0050 ms) |`, "graphql": "| 0.0042 |"} {
		row := between(section, "| read-one | "+app+" |", "\n")
		if !strings.Contains(row, cell) {
			t.Errorf("the light read-one row of %s lacks %q: %s", app, cell, row)
		}
	}
	want := "light · read-one: least app CPU per request: graphql at 0.0042 ms; rest 47.6× that (0.20 ms); below the CPU readings' resolution for htmx."
	if got := report.Findings(run); !slices.Contains(got, want) {
		t.Errorf("no finding\n  %s\nfindings:\n  %s", want, strings.Join(got, "\n  "))
	}
	if strings.Contains(md, " 0.00 ms") || strings.Contains(section, "| 0.00 |") {
		t.Errorf("report.md prints 0.00 ms of CPU for a run that served requests")
	}
}

func TestMarkdownRepeats(t *testing.T) {
	run := newRun(t)
	run.Settings.Repeat = 3
	r := find(t, run, "light", "read-one", "rest")
	r.Repeats = []results.RepeatSummary{{P99: 1.8}, {P99: 2.0}, {P99: 3.5}}
	r.Spread = &results.RepeatSummary{AchievedRate: 0.2, Throughput: 0.2, P50: 0.1, P99: 1.7, CPUMean: 0.01, RSSMaxMB: 1.5}
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	for _, want := range []string{
		"median of the repeats",
		"### Spread across repeats: light",
		"| read-one | rest | 3 | 0.2 | 0.2 | 0.00% | 0.10 | 1.70 | 1.0% | 1.5 |",
		"p99 latency of rest on read-one (light) varied by 1.70 ms across 3 repeats",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

func TestHTML(t *testing.T) {
	run := newRun(t)
	page := readFile(t, filepath.Join(written(t, run), report.HTMLFile))

	checkBalanced(t, page)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("report.html does not parse: %v", err)
	}
	var svgs, polylines int
	rows := map[string][][]string{} // profile -> rows of its result table
	var profile, chart string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		checkSelfContained(t, n)
		switch n.Data {
		case "svg":
			svgs++
			chart = attr(n, "aria-label")
		case "polyline":
			if strings.Contains(chart, "over time") {
				polylines++
			}
		case "h2":
			profile = strings.TrimPrefix(attr(n, "id"), "profile-")
		case "tr":
			if _, ok := rates[profile]; ok {
				if cells := rowCells(n); len(cells) > 0 {
					rows[profile] = append(rows[profile], cells)
				}
			}
		}
	}
	// 4 latency charts and 3 bar charts per profile, CPU and RSS over time
	// for the one scenario that has samples, and one latency-against-load
	// chart per scenario.
	if want := 2*(4+3) + 2 + 4; svgs != want {
		t.Errorf("report.html has %d <svg> charts, want %d", svgs, want)
	}
	if polylines != 6 {
		t.Errorf("report.html has %d over-time lines, want 6 (CPU and RSS of three apps)", polylines)
	}
	for _, r := range run.Results {
		found := slices.ContainsFunc(rows[r.Profile], func(cells []string) bool {
			return len(cells) == 20 && cells[0] == r.Scenario && cells[1] == r.App && strings.HasPrefix(cells[19], r.Verdict)
		})
		if !found {
			t.Errorf("report.html's %s table lacks the row of %s/%s (%s)", r.Profile, r.Scenario, r.App, r.Verdict)
		}
	}
	for _, want := range []string{
		"Samples files not found beside the report, so their over-time lines are omitted: read-one · rest (samples/high-read-one-rest.csv)",
		escaped(validationProblem),
		"<td class=\"num\">n/a</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// checkSelfContained fails when element n would load anything from
// outside the page: report.html must open from a copied folder, offline.
func checkSelfContained(t *testing.T, n *html.Node) {
	t.Helper()
	switch n.Data {
	case "script", "link", "iframe", "object", "embed", "img":
		t.Errorf("report.html has a <%s> element: it must be self-contained", n.Data)
	case "style":
		if css := text(n); strings.Contains(css, "url(") || strings.Contains(css, "@import") {
			t.Errorf("report.html's style loads something: %q", css)
		}
	}
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "src", "href", "action", "srcset", "poster", "data", "xlink:href", "formaction":
			v := strings.ToLower(strings.TrimSpace(a.Val))
			if strings.Contains(v, "://") || strings.HasPrefix(v, "//") || strings.HasPrefix(v, "javascript:") {
				t.Errorf("report.html refers outside itself: <%s %s=%q>", n.Data, a.Key, a.Val)
			}
		}
	}
}

// rowCells is the text of each cell of table row tr.
func rowCells(tr *html.Node) []string {
	var cells []string
	for c := range tr.ChildNodes() {
		if c.Type == html.ElementNode && c.Data == "td" {
			cells = append(cells, text(c))
		}
	}
	return cells
}

func TestSummary(t *testing.T) {
	run := newRun(t)
	var b strings.Builder
	report.Summary(&b, run)
	out := b.String()
	lines := strings.Split(out, "\n")
	for _, r := range run.Results {
		found := slices.ContainsFunc(lines, func(l string) bool {
			f := strings.Fields(l)
			return len(f) > 2 && f[0] == r.Scenario && f[1] == r.App && strings.Contains(l, r.Verdict)
		})
		if !found {
			t.Errorf("summary lacks the row of %s/%s/%s", r.Profile, r.Scenario, r.App)
		}
	}
	for _, want := range append([]string{"Profile light", "Profile high", "Findings", "n/a"}, report.Findings(run)...) {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
}
