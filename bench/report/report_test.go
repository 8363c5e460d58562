package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"crudbench/bench/report"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

var (
	profiles  = []string{"light", "high"}
	scenarios = []string{"read-one", "read-small", "read-many", "write"}
	appNames  = []string{"rest", "graphql", "htmx"}
	rates     = map[string]map[string]float64{
		"light": {"read-one": 100, "read-small": 100, "read-many": 20, "write": 20},
		"high":  {"read-one": 1200, "read-small": 1200, "read-many": 20, "write": 100},
	}
	// p99 and CPU-ms per request by app, scaled per scenario below.
	baseP99   = map[string]float64{"rest": 2.0, "graphql": 5.0, "htmx": 2.8}
	baseCPUMs = map[string]float64{"rest": 0.2, "graphql": 0.5, "htmx": 0.3}
	scale     = map[string]float64{"read-one": 1, "read-small": 0.8, "read-many": 20, "write": 3}
)

const validationProblem = `response is the login page (<form action="/login">), not the vacancy list`

// newRun builds a realistic run: two profiles, four scenarios, three apps,
// with a saturated run, a failed validation, a skipped run, an app whose
// CPU could not be read and a database whose CPU was not visible.
func newRun(t *testing.T) *results.Run {
	t.Helper()
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	run := &results.Run{
		SchemaVersion: results.SchemaVersion,
		StartedAt:     start,
		FinishedAt:    start.Add(14*time.Minute + 12*time.Second),
		Environment: results.Environment{
			CPUModel: "AMD EPYC 7B13 64-Core Processor", CPUCount: 2, Kernel: "6.1.0-18-amd64",
			GoVersion: "go1.26.8", PostgresVersion: "PostgreSQL 15.8", GitCommit: "9e0658b",
			Dataset: map[string]int64{"person": 500, "appointment": 1512, "stipend": 4036, "funding": 3024, "payer": 40, "vacancy": 120},
			Mode:    "embedded",
		},
		Settings: results.Settings{
			Profiles: profiles, Scenarios: scenarios, Apps: appNames,
			Warmup: results.Duration(3 * time.Second), Duration: results.Duration(15 * time.Second),
			Cooldown: results.Duration(2 * time.Second), Timeout: results.Duration(30 * time.Second),
			MaxConnections: 100, Repeat: 1, SampleInterval: results.Duration(100 * time.Millisecond),
			DBMaxConns: 20, Rates: rates, SLOP99: results.Duration(results.DefaultSLOP99),
		},
		Runner:          results.ProcessCost{Available: true, PID: 100, CPUMean: 0.6, CPUMax: 0.9, RSSMeanMB: 80, RSSMaxMB: 96},
		SamplerOverhead: 0.0032,
		Notes: []string{
			"htmx answers server-rendered HTML, so its responses are larger than the JSON of rest and graphql for the same fields.",
			"graphql's read-one query selects exactly the fields rest returns (field parity).",
		},
	}
	for _, s := range scenarios {
		for _, a := range appNames {
			v := results.Validation{Scenario: s, App: a, OK: true}
			if s == "write" && a == "htmx" {
				v.OK, v.Problem = false, validationProblem
			}
			run.Validations = append(run.Validations, v)
		}
	}
	for _, p := range profiles {
		for _, s := range scenarios {
			for _, a := range appNames {
				run.Results = append(run.Results, measuredResult(p, s, a))
			}
		}
	}
	// htmx cannot keep 1200 req/s of read-one.
	sat := find(t, run, "high", "read-one", "htmx")
	sat.Verdict, sat.Reason = results.VerdictSaturated, "throughput 71% of target"
	sat.Throughput, sat.SuccessRatio = 850, 0.9975
	sat.StatusCodes = map[string]int{"200": 12750, "0": 32}
	sat.Errors = []string{`Get "http://127.0.0.1:8083/persons/1": context deadline exceeded`}
	sat.Latency = results.Latency{Mean: 900, P50: 850, P90: 1900, P95: 2400, P99: 3100, Max: 5200}
	// The write cycle failed validation on htmx: not measured.
	for _, p := range profiles {
		f := find(t, run, p, "write", "htmx")
		*f = results.Result{Profile: p, Scenario: "write", App: "htmx", Verdict: results.VerdictFailed,
			Reason: "validation failed", TargetRate: rates[p]["write"]}
	}
	// graphql was attached without a pid for one run.
	blind := find(t, run, "high", "read-many", "graphql")
	blind.AppCost = results.ProcessCost{}
	// PostgreSQL's CPU was not visible for one run.
	find(t, run, "light", "read-many", "rest").DB.CPUAvailable = false
	// Interrupted before the last run.
	skip := find(t, run, "high", "read-small", "rest")
	*skip = results.Result{Profile: "high", Scenario: "read-small", App: "rest", Verdict: results.VerdictSkipped,
		Reason: "interrupted", TargetRate: 1200}
	return run
}

func measuredResult(profile, scenario, app string) results.Result {
	target := rates[profile][scenario]
	p99 := baseP99[app] * scale[scenario]
	cpuMs := baseCPUMs[app] * scale[scenario]
	n := int(target * 15)
	return results.Result{
		Profile: profile, Scenario: scenario, App: app, Verdict: results.VerdictOK,
		TargetRate: target, AchievedRate: target - 0.1, Throughput: target - 0.1,
		Requests: uint64(n), SuccessRatio: 1, StatusCodes: map[string]int{"200": n},
		Latency:  results.Latency{Mean: p99 / 3, P50: p99 / 4, P90: p99 / 2, P95: p99 * 0.7, P99: p99, Max: p99 * 3},
		BytesIn:  4210 * scale[scenario],
		BytesOut: 0,
		AppCost: results.ProcessCost{Available: true, PID: 4242, CPUMean: target * cpuMs / 1000, CPUMax: target * cpuMs / 1000 * 1.4,
			CPUMsPerRequest: cpuMs, RSSMeanMB: 24.5, RSSMaxMB: 27.5, RSSStartMB: 22, RSSEndMB: 26.75},
		DB: results.DBCost{Available: true, StatementsPerRequest: 4, CPUAvailable: true, CPUMean: 0.12,
			CPUMsPerRequest: 1.25, RSSMeanMB: 140},
		RawFile:     fmt.Sprintf("raw/%s-%s-%s.bin", profile, scenario, app),
		SamplesFile: fmt.Sprintf("samples/%s-%s-%s.csv", profile, scenario, app),
	}
}

func find(t *testing.T, run *results.Run, profile, scenario, app string) *results.Result {
	t.Helper()
	for i := range run.Results {
		r := &run.Results[i]
		if r.Profile == profile && r.Scenario == scenario && r.App == app {
			return r
		}
	}
	t.Fatalf("no result %s/%s/%s", profile, scenario, app)
	return nil
}

// writeSamples writes sampler CSVs for light read-one (every app) with the
// sampler's own writer; the other runs' samples are missing on purpose.
func writeSamples(t *testing.T, dir string, run *results.Run) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "samples"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := run.StartedAt
	for i, a := range appNames {
		ser := sampler.Series{Start: start}
		for k := range 181 {
			ser.Samples = append(ser.Samples, sampler.Sample{
				At:       start.Add(time.Duration(k) * 100 * time.Millisecond),
				CPU:      time.Duration(k*(i+1)/3) * 10 * time.Millisecond,
				RSSBytes: uint64(20+i*5+k/20) << 20,
			})
		}
		var b bytes.Buffer
		if err := ser.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(find(t, run, "light", "read-one", a).SamplesFile))
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

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

// between returns s from the first start to the next end after it.
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return s
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
		switch n.Data {
		case "script", "link", "iframe", "object", "embed", "img":
			t.Errorf("report.html has a <%s> element: it must be self-contained", n.Data)
		case "style":
			if css := text(n); strings.Contains(css, "url(") || strings.Contains(css, "@import") {
				t.Errorf("report.html's style loads something: %q", css)
			}
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
				var cells []string
				for c := range n.ChildNodes() {
					if c.Type == html.ElementNode && c.Data == "td" {
						cells = append(cells, text(c))
					}
				}
				if len(cells) > 0 {
					rows[profile] = append(rows[profile], cells)
				}
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

// escaped is s as html/template escapes text.
func escaped(s string) string {
	return strings.NewReplacer(`<`, "&lt;", `>`, "&gt;", `"`, "&#34;").Replace(s)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// checkBalanced fails unless every element the page opens is closed in
// order: html.Parse forgives anything, this does not.
func checkBalanced(t *testing.T, page string) {
	t.Helper()
	void := map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
		"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}
	z := html.NewTokenizer(strings.NewReader(page))
	var stack []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if len(stack) > 0 {
				t.Errorf("report.html leaves open: %v", stack)
			}
			return
		case html.StartTagToken:
			name, _ := z.TagName()
			if !void[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Fatalf("report.html closes </%s> while %v is open", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func TestFindings(t *testing.T) {
	// ratio prints a/b as the findings do: two decimals, one from 10×.
	ratio := func(a, b float64) string {
		if a/b >= 10 {
			return fmt.Sprintf("%.1f×", a/b)
		}
		return fmt.Sprintf("%.2f×", a/b)
	}
	tests := []struct {
		name   string
		change func(t *testing.T, run *results.Run)
		want   []string
	}{
		{
			name: "as measured",
			want: []string{
				"light · read-one: all 3 apps held the target of 100 req/s.",
				"light · read-one: lowest p99 latency: rest at 2.00 ms; htmx " + ratio(2.8, 2.0) + " that (2.80 ms), graphql " + ratio(5.0, 2.0) + " that (5.00 ms).",
				"light · read-one: least app CPU per request: rest at 0.20 ms; htmx " + ratio(0.3, 0.2) + " that (0.30 ms), graphql " + ratio(0.5, 0.2) + " that (0.50 ms).",
				"high · read-one: rest and graphql held the target of 1200 req/s; htmx did not and queued. Most throughput: rest at 1199.9 req/s; 1.00× graphql (1199.9 req/s), " + ratio(1199.9, 850) + " htmx (850.0 req/s) — rest and graphql are within 5% of each other, too close to call.",
				"htmx did not hold read-one at 1200 req/s (high), so requests queued and its latencies measure the queue: throughput 850.0 req/s, 71% of the target; success 99.75%; it held 100 req/s (light).",
				"high · read-one: lowest p99 latency: rest at 2.00 ms; graphql " + ratio(5.0, 2.0) + " that (5.00 ms); not compared: htmx, which queued.",
				"Validation failed for htmx on write: " + validationProblem + ". That scenario was not measured on htmx.",
				"high · read-small on rest was skipped: interrupted.",
				"App CPU and memory of graphql could not be read in 1 of its 8 measured runs",
				"PostgreSQL CPU was not visible in 1 of 21 measured runs",
				"The load generator itself used 60% of one core on average, 30% of this 2-core machine",
			},
		},
		{
			name: "graphql gets faster",
			change: func(t *testing.T, run *results.Run) {
				find(t, run, "light", "read-one", "graphql").Latency.P99 = 1.25
			},
			want: []string{
				"light · read-one: lowest p99 latency: graphql at 1.25 ms; rest " + ratio(2.0, 1.25) + " that (2.00 ms), htmx " + ratio(2.8, 1.25) + " that (2.80 ms).",
			},
		},
		{
			name: "htmx gets cheaper",
			change: func(t *testing.T, run *results.Run) {
				find(t, run, "light", "read-one", "htmx").AppCost.CPUMsPerRequest = 0.05
			},
			want: []string{
				"light · read-one: least app CPU per request: htmx at 0.05 ms; rest " + ratio(0.2, 0.05) + " that (0.20 ms), graphql " + ratio(0.5, 0.05) + " that (0.50 ms).",
			},
		},
		{
			name: "graphql saturates too",
			change: func(t *testing.T, run *results.Run) {
				r := find(t, run, "high", "read-one", "graphql")
				r.Verdict, r.Throughput = results.VerdictSaturated, 600
			},
			want: []string{
				"high · read-one: rest held the target of 1200 req/s; graphql and htmx did not and queued. Most throughput: rest at 1199.9 req/s; " + ratio(1199.9, 850) + " htmx (850.0 req/s), " + ratio(1199.9, 600) + " graphql (600.0 req/s).",
				"graphql did not hold read-one at 1200 req/s (high), so requests queued and its latencies measure the queue: throughput 600.0 req/s, 50% of the target",
			},
		},
		{
			name: "graphql is slow",
			change: func(t *testing.T, run *results.Run) {
				r := find(t, run, "light", "read-one", "graphql")
				r.Verdict, r.Latency.P99 = results.VerdictSlow, 80
			},
			want: []string{
				"light · read-one: all 3 apps held the target of 100 req/s; over the p99 SLO of 50 ms: graphql.",
				"light · read-one: lowest p99 latency: rest at 2.00 ms; htmx " + ratio(2.8, 2.0) + " that (2.80 ms), graphql " + ratio(80, 2.0) + " that (80.0 ms).",
			},
		},
		{
			name: "load generator falls behind",
			change: func(t *testing.T, run *results.Run) {
				find(t, run, "high", "read-small", "graphql").AchievedRate = 1000
			},
			want: []string{"The load generator sent only 1000.0 of the 1200 req/s target to graphql on read-small (high), 83%"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := newRun(t)
			if tt.change != nil {
				tt.change(t, run)
			}
			got := report.Findings(run)
			for _, want := range tt.want {
				if !slices.ContainsFunc(got, func(f string) bool { return strings.HasPrefix(f, want) }) {
					t.Errorf("no finding starts with\n  %s\nfindings:\n  %s", want, strings.Join(got, "\n  "))
				}
			}
		})
	}
}

// TestFindingsNeverCompareQueuedLatency is the case of issue 11: a graphql
// that did not hold 1200 req/s had a p99 of 3089 ms, the length of its
// queue, and the findings compared it with rest's as "687× that".
func TestFindingsNeverCompareQueuedLatency(t *testing.T) {
	run := newRun(t)
	g := find(t, run, "high", "read-one", "graphql")
	g.Verdict, g.Throughput, g.AchievedRate = results.VerdictSaturated, 731.4, 1199.9
	g.Latency = results.Latency{Mean: 1500, P50: 1400, P90: 2800, P95: 2950, P99: 3089, Max: 4100}
	find(t, run, "high", "read-one", "rest").Latency.P99 = 4.5
	got := report.Findings(run)
	for _, f := range got {
		if strings.Contains(f, "3089") || strings.Contains(f, "687") {
			t.Errorf("a finding quotes the queued p99 of graphql: %s", f)
		}
		if strings.Contains(f, "high · read-one: lowest p99") && strings.Contains(f, "graphql ") && !strings.Contains(f, "not compared: graphql and htmx, which queued") {
			t.Errorf("graphql's queued latency is ranked: %s", f)
		}
	}
	want := "graphql did not hold read-one at 1200 req/s (high), so requests queued and its latencies measure the queue: throughput 731.4 req/s"
	if !slices.ContainsFunc(got, func(f string) bool { return strings.HasPrefix(f, want) }) {
		t.Errorf("no finding starts with\n  %s\nfindings:\n  %s", want, strings.Join(got, "\n  "))
	}
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
