package report_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// fullRun is newRun with every section of schema version 2: an SLO with
// slow runs, per-second timelines, CPU profiles, capacity searches on
// read-one and read-small, and stack facts.
func fullRun(t *testing.T) *results.Run {
	t.Helper()
	run := newRun(t)
	run.Settings.ProfileCPU = true
	run.Settings.Capacity = &results.CapacitySettings{Start: 50, Growth: 2, Max: 5000, Precision: 0.05,
		ProbeWarmup: results.Duration(2e9), ProbeDuration: results.Duration(5e9),
		MinSuccessRatio: results.CapacityMinSuccessRatio, MinThroughputShare: results.CapacityMinThroughputShare}
	for _, p := range profiles {
		r := find(t, run, p, "read-many", "htmx")
		r.Verdict = results.VerdictSlow
	}
	for i := range run.Results {
		if r := &run.Results[i]; r.Measured() {
			r.Timeline = timeline(r.Latency.P50, r.Latency.P99, !r.HeldRate())
		}
	}
	for _, a := range appNames {
		find(t, run, "high", "read-one", a).CPUProfile = cpuProfile("high-read-one-"+a, 0.12, 0.30)
	}
	run.Capacities = []results.Capacity{
		found("read-one", "rest", 1450, 1520, results.StopAppCPU, "the app used its CPU: app 1.92 of 2 cores", 0.50, 30),
		found("read-one", "graphql", 610, 640, results.StopAppCPU, "app CPU 1.95 of 2 cores", 1.20, 44),
		found("read-one", "htmx", 700, 735, results.StopLoadGenerator, "the load generator sent 637 of 700 req/s: it fell behind its schedule", 1.05, 33),
		{Scenario: "read-small", App: "rest", Status: results.CapacityCapped, Rate: 5000, StopReason: results.StopCap,
			StopDetail: "every probe up to the cap of 5000 req/s met the SLO", PerCore: 2900,
			Probes: ramp(5000, 0, 0.3), Confirmation: confirmation("read-small", "rest", 5000, 0.35, 29), Held: true},
		found("read-small", "graphql", 900, 945, results.StopQueueing, "latency grew with CPU to spare: app 1.10 of 2 cores", 0.80, 41),
		{Scenario: "read-small", App: "htmx", Status: results.CapacityNone, Upper: 50, StopReason: results.StopAppCPU,
			StopDetail: "the app used its CPU: app 1.97 of 2 cores", Probes: []results.Probe{probe(50, false, 0.9)}},
	}
	graphql := run.Capacities[1].Confirmation
	graphql.CPUProfile = cpuProfile("capacity-read-one-graphql", 0.10, 0.41)
	run.Stacks = []results.StackFacts{
		stack("rest", 800, 0, 14, 180, 12.5),
		stack("graphql", 2400, 9000, 22, 240, 18.25),
		stack("htmx", 1000, 0, 15, 190, 13),
	}
	return run
}

// timeline is 15 seconds at steady latencies, or with a p99 that climbs
// for a run that queued.
func timeline(p50, p99 float64, queued bool) []results.Second {
	var ts []results.Second
	for i := range 15 {
		s := results.Second{At: float64(i), Requests: 100, Successes: 100, P50: p50, P99: p99}
		if queued {
			s.P50, s.P99 = p50*float64(i+1)/15, p99*float64(i+1)/15
		}
		ts = append(ts, s)
	}
	return ts
}

// cpuProfile spends http, then encoding, and shares the rest out so the
// shares add up to 1.
func cpuProfile(name string, http, encoding float64) *results.CPUProfile {
	rest := (1 - http - encoding) / 4
	p := &results.CPUProfile{File: "profiles/" + name + ".pb.gz", Seconds: 15, CPUSeconds: 4.1}
	for _, l := range results.Layers {
		share := rest
		switch l {
		case results.LayerHTTP:
			share = http
		case results.LayerEncoding:
			share = encoding
		}
		p.Layers = append(p.Layers, results.LayerShare{Layer: l, Share: share})
	}
	for i := range 10 {
		p.Top = append(p.Top, results.FunctionShare{Name: fmt.Sprintf("pkg.Func%d", i), Flat: 0.1 - float64(i)*0.008, Cum: 0.2 + float64(i)*0.01})
	}
	return p
}

// found is a search that bracketed rate between its ramp and bisection.
func found(scenario, app string, rate, upper float64, stop, detail string, cpuMs, rssMB float64) results.Capacity {
	conf := confirmation(scenario, app, rate, cpuMs, rssMB)
	return results.Capacity{Scenario: scenario, App: app, Status: results.CapacityFound, Rate: rate, Upper: upper,
		StopReason: stop, StopDetail: detail, PerCore: rate / conf.AppCost.CPUMean,
		Probes: append(ramp(rate, upper, cpuMs), probe(rate, true, cpuMs*rate/1000)), Confirmation: conf, Held: true}
}

// ramp doubles from 50 req/s while under limit, then misses at upper.
func ramp(limit, upper, cpuMs float64) []results.Probe {
	var ps []results.Probe
	for r := 50.0; r <= limit; r *= 2 {
		ps = append(ps, probe(r, true, cpuMs*r/1000))
	}
	if upper > 0 {
		ps = append(ps, probe(upper, false, 1.9))
	}
	return ps
}

func probe(rate float64, met bool, cores float64) results.Probe {
	p := results.Probe{Rate: rate, AchievedRate: rate, Throughput: rate, SuccessRatio: 1, P50: 1.5, P99: 9,
		AppCPU: cores, AppCPUAvailable: true, DBCPU: 0.2, DBCPUAvailable: true, RunnerCPU: 0.3, MachineCPU: cores + 0.5,
		MachineCPUAvailable: true, Met: met}
	if !met {
		p.Throughput, p.P50, p.P99, p.Why = rate*0.8, 400, 2100, "throughput 80% of the rate"
	}
	return p
}

func confirmation(scenario, app string, rate, cpuMs, rssMB float64) *results.Result {
	r := measuredResult("light", scenario, app)
	r.Profile, r.TargetRate, r.AchievedRate, r.Throughput = "capacity", rate, rate, rate
	r.AppCost.CPUMsPerRequest, r.AppCost.CPUMean, r.AppCost.RSSMaxMB = cpuMs, rate*cpuMs/1000, rssMB
	r.Latency.P99 = 31
	r.Timeline = timeline(r.Latency.P50, r.Latency.P99, false)
	return &r
}

func stack(app string, goLines, generated int, binaryMB, startMs, idleMB float64) results.StackFacts {
	return results.StackFacts{App: app, Own: results.Lines{Go: goLines, Generated: generated, Tests: 650, Other: 120},
		Shared: results.Lines{Go: 3000, Generated: 2400, Tests: 900}, DirectModules: 9, TotalModules: 41,
		BinaryBytes: int64(binaryMB * results.BytesPerMB), StartMs: startMs, IdleRSSMB: idleMB}
}

// bottomLineRun is fullRun with no profile at which every app held
// read-one, so that read-one's figures come from the confirmations.
func bottomLineRun(t *testing.T) *results.Run {
	t.Helper()
	run := fullRun(t)
	for _, p := range profiles {
		find(t, run, p, "read-one", "htmx").Verdict = results.VerdictSaturated
	}
	return run
}

func TestBottomLine(t *testing.T) {
	run := bottomLineRun(t)
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	section := between(md, "## Bottom line\n", "\n## ")
	want := []string{
		"On read-one, rest met the SLO up to 1450 req/s on this machine, graphql up to 610 req/s and htmx up to 700 req/s.",
		"On read-small, rest met the SLO up to the search's cap of 5000 req/s on this machine, graphql up to 900 req/s; htmx did not meet it even at 50 req/s.",
		"On read-one (capacity confirmation runs, each app at its own capacity), htmx spent 2.10× rest's CPU per request (1.05 vs 0.50 ms); graphql spent 2.40× rest's CPU per request (1.20 vs 0.50 ms), 41% of it in encoding.",
		"rest used the least memory, 30.0 MB RSS at most; htmx 1.10× that (33.0 MB) and graphql 1.47× that (44.0 MB).",
		"htmx's binary is 1.07× rest's (15.0 vs 14.0 MB), with 1.25× its hand-written Go lines (1,000 vs 800); graphql's binary is 1.57× rest's (22.0 vs 14.0 MB), with 3.00× its hand-written Go lines (2,400 vs 800).",
	}
	var got []string
	for _, l := range strings.Split(section, "\n") {
		if s, ok := strings.CutPrefix(l, "- "); ok {
			got = append(got, s)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("bottom line sentences:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	rows := map[string]string{
		"rest":    "| rest | 1450 | ≥ 5000 (cap reached) | 0.50 | 4,210 | n/a | n/a | 4.00 | 84,200 | 0.60 | 12,630 | 30.0 | 14.0 | 800 |",
		"graphql": "| graphql | 610 | 900 | 1.20 | 4,210 | 0.40 | 3,368 | 10.0 | 84,200 | 1.50 | 12,630 | 44.0 | 22.0 | 2,400 |",
		"htmx":    "| htmx | 700 | none below 50 | 1.05 | 4,210 | 0.24 | 3,368 | 6.00 | 84,200 | n/a | n/a | 33.0 | 15.0 | 1,000 |",
	}
	for app, row := range rows {
		if !strings.Contains(section, row) {
			t.Errorf("bottom line lacks the row of %s:\n%s\nsection:\n%s", app, row, section)
		}
	}
	// Every figure of a sentence is a figure of the table (ratios and the
	// layer share aside, which are computed from them or shown under Where
	// the CPU goes).
	table := between(section, "| app |", "\n\n")
	for _, s := range want {
		for _, n := range regexp.MustCompile(`\d[\d,.]*\d|\d`).FindAllString(s, -1) {
			if i := strings.Index(s, n) + len(n); i < len(s) && (s[i:i+1] == "%" || strings.HasPrefix(s[i:], "×")) {
				continue
			}
			if !strings.Contains(table, " "+n+" ") {
				t.Errorf("sentence figure %s is not in the table: %s", n, s)
			}
		}
	}
	for _, src := range []string{"read-one: capacity confirmation runs, each app at its own capacity", "read-small: profile high at 1200 req/s", "read-many: profile light at 20 req/s", "write: profile high at 100 req/s"} {
		if !strings.Contains(section, src) {
			t.Errorf("bottom line does not say %q", src)
		}
	}
}

func TestBottomLineWithoutNumbers(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, run *results.Run)
		absent []string
		want   []string
	}{
		{
			name:   "no capacity search",
			change: func(t *testing.T, run *results.Run) { run.Capacities = nil },
			absent: []string{"met the SLO", "capacity req/s", "read-one: capacity confirmation runs"},
		},
		{
			name: "no app met the SLO on read-one",
			change: func(t *testing.T, run *results.Run) {
				for i := range run.Capacities[:3] {
					c := &run.Capacities[i]
					c.Status, c.Rate, c.Upper, c.Confirmation, c.Held = results.CapacityNone, 0, 50, nil, false
				}
			},
			absent: []string{"On read-one, rest met", "read-one: capacity confirmation runs"},
			want:   []string{"- On read-one, rest, graphql and htmx did not meet the SLO even at 50 req/s.\n", "| rest | none below 50 | ≥ 5000 (cap reached) |"},
		},
		{
			name: "apps missed the SLO at different first rates",
			change: func(t *testing.T, run *results.Run) {
				for i, upper := range []float64{50, 100} {
					c := &run.Capacities[1+i]
					c.Status, c.Rate, c.Upper, c.Confirmation, c.Held = results.CapacityNone, 0, upper, nil, false
				}
			},
			want: []string{"- On read-one, rest met the SLO up to 1450 req/s on this machine; graphql did not meet it even at 50 req/s and htmx did not meet it even at 100 req/s.\n"},
		},
		{
			name:   "no stack facts",
			change: func(t *testing.T, run *results.Run) { run.Stacks = nil },
			absent: []string{"binary", "own Go lines"},
		},
		{
			name: "app CPU of one app only",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities = nil
				for i := range run.Results {
					if r := &run.Results[i]; r.App != "rest" {
						r.AppCost = results.ProcessCost{}
					}
				}
			},
			absent: []string{"CPU per request", "used the least memory"},
		},
		{
			name: "every profile queued on read-one",
			change: func(t *testing.T, run *results.Run) {
				run.Capacities = nil
				find(t, run, "light", "read-one", "rest").Verdict = results.VerdictSaturated
			},
			absent: []string{"read-one CPU-ms/req", "On read-one"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := fullRun(t)
			tt.change(t, run)
			md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
			section := between(md, "## Bottom line\n", "\n## ")
			for _, a := range tt.absent {
				if strings.Contains(section, a) {
					t.Errorf("bottom line has %q without the numbers for it:\n%s", a, section)
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(section, w) {
					t.Errorf("bottom line lacks %q:\n%s", w, section)
				}
			}
		})
	}
}

func TestCapacitySection(t *testing.T) {
	run := fullRun(t)
	dir := written(t, run)
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	section := between(md, "## Capacity\n", "\n## ")
	for _, want := range []string{
		"p99 within 50 ms, success at least 99.9% and throughput at least 99% of the rate",
		"| read-one | rest | 1450 | found | the app used its CPU: app 1.92 of 2 cores | 2000 | held the SLO | 1450.0 | 0.50 | 31.0 | 72.5% |",
		"| read-one | htmx | 700 | found | the load generator sent 637 of 700 req/s: it fell behind its schedule |",
		"| read-small | rest | ≥ 5000 (cap reached) | capped | every probe up to the cap of 5000 req/s met the SLO | 2900 | held the SLO |",
		"| read-small | graphql | 900 | found | latency grew with CPU to spare: app 1.10 of 2 cores |",
		"| read-small | htmx | none below 50 | none | the app used its CPU: app 1.97 of 2 cores | n/a | not run | n/a | n/a | n/a | n/a |",
		"### Capacity probes",
		"| read-one | rest | 1520 | 1216.0 | 2100 | 190% | n/a | missed: throughput 80% of the rate |",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("capacity section lacks\n%s\nsection:\n%s", want, section)
		}
	}
	probes := 0
	for _, c := range run.Capacities {
		probes += len(c.Probes)
	}
	if got := strings.Count(between(section, "### Capacity probes\n", "\n\n\n"), "\n| read-"); got != probes {
		t.Errorf("capacity probes table has %d rows, want %d", got, probes)
	}

	doc := parseHTML(t, filepath.Join(dir, report.HTMLFile))
	details := elements(doc, "details")
	var labels []string
	for _, d := range details {
		labels = append(labels, text(elements(d, "summary")[0]))
	}
	for _, c := range run.Capacities {
		if !slices.Contains(labels, c.Scenario+" · "+c.App) {
			t.Errorf("report.html has no probes block for %s · %s (blocks: %v)", c.Scenario, c.App, labels)
		}
	}
}

func TestLoadCharts(t *testing.T) {
	run := fullRun(t)
	doc := parseHTML(t, filepath.Join(written(t, run), report.HTMLFile))
	charts := map[string]*html.Node{}
	for _, s := range elements(doc, "svg") {
		charts[attr(s, "aria-label")] = s
	}
	c := charts["read-one: latency against offered rate"]
	if c == nil {
		t.Fatalf("report.html has no latency-against-load chart of read-one; charts: %v", keys(charts))
	}
	// Every rate measured on read-one: 2 profiles × 3 apps, each search's
	// probes and its confirmation.
	want, crosses := 6, 1 // htmx did not hold 1200 req/s
	for _, cp := range run.Capacities {
		if cp.Scenario == "read-one" {
			want += len(cp.Probes) + 1
			crosses++ // each search's lowest missing probe queued
		}
	}
	if got := len(elements(c, "circle")) + len(elements(c, "path")); got != want {
		t.Errorf("read-one chart marks %d rates, want %d", got, want)
	}
	if got := len(elements(c, "path")); got != crosses {
		t.Errorf("read-one chart crosses out %d rates, want %d that did not hold", got, crosses)
	}
	for _, label := range []string{"SLO p99 50 ms", "offered rate, req/s (log scale)", "ms (log scale)"} {
		if !strings.Contains(text(c), label) {
			t.Errorf("read-one chart lacks %q", label)
		}
	}
	for _, s := range scenarios {
		if charts[s+": latency against offered rate"] == nil {
			t.Errorf("no latency-against-load chart of %s", s)
		}
	}
	timelines := 0
	for label := range charts {
		if strings.HasPrefix(label, "latency per second of ") {
			timelines++
		}
	}
	measured := 0
	for _, r := range run.Results {
		if r.Measured() {
			measured++
		}
	}
	if want := measured + 5; timelines != want {
		t.Errorf("report.html has %d latency-per-second charts, want %d (every measured run and confirmation)", timelines, want)
	}
}

func TestWhereTheCPUGoes(t *testing.T) {
	run := fullRun(t)
	dir := written(t, run)
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	section := between(md, "## Where the CPU goes\n", "\n## ")
	for _, want := range []string{
		"| run | target req/s | CPU profiled | http | encoding | driver | app | runtime | other | profile |",
		"| high · read-one · graphql | 1200 | 4.10 s of 15.0 s | 12% | 30% | 15% | 15% | 15% | 15% | [profiles/high-read-one-graphql.pb.gz](profiles/high-read-one-graphql.pb.gz) |",
		"| capacity · read-one · graphql | 610 | 4.10 s of 15.0 s | 10% | 41% |",
		"### Top functions: high · read-one · rest",
		"| 1 | pkg.Func0 | 10.0% | 20.0% |",
		"| 10 | pkg.Func9 | 2.8% | 29.0% |",
		"`go tool pprof -top profiles/high-read-one-htmx.pb.gz`",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("Where the CPU goes lacks\n%s", want)
		}
	}
	doc := parseHTML(t, filepath.Join(dir, report.HTMLFile))
	var chart *html.Node
	for _, s := range elements(doc, "svg") {
		if attr(s, "aria-label") == "share of app CPU by layer" {
			chart = s
		}
	}
	if chart == nil {
		t.Fatal("report.html has no layer chart")
	}
	// A legend swatch per layer, then a bar segment per layer per run.
	if got, want := len(elements(chart, "rect")), len(results.Layers)*(1+4); got != want {
		t.Errorf("layer chart has %d rects, want %d", got, want)
	}
	var hints int
	for _, d := range elements(doc, "details") {
		if strings.Contains(text(d), "go tool pprof -top profiles/") {
			hints++
		}
	}
	if hints != 4 {
		t.Errorf("report.html has %d top-function blocks with the pprof hint, want 4", hints)
	}
}

func TestStackFacts(t *testing.T) {
	run := bottomLineRun(t)
	h := &run.Stacks[2]
	h.BinaryBytes, h.StartMs, h.IdleRSSMB, h.TotalModules = 0, 0, 0, 0
	h.Problems = []string{"attached by URL: no binary and no start to time"}
	g := &run.Stacks[1]
	g.Own, g.Shared = results.Lines{}, results.Lines{}
	g.Problems = []string{"attached without a source tree: no lines counted"}
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	section := between(md, "## Stack facts\n", "\n## ")
	for _, want := range []string{
		"| rest | 800 | 0 | 650 | 120 | 5,400 | 9 / 41 | 14.0 | 180 | 12.5 | – |",
		"| graphql | n/a | n/a | n/a | n/a | n/a | 9 / 41 | 22.0 | 240 | 18.2 | attached without a source tree: no lines counted |",
		"| htmx | 1,000 | 0 | 650 | 120 | 5,400 | n/a | n/a | n/a | n/a | attached by URL: no binary and no start to time |",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("stack facts lack\n%s\nsection:\n%s", want, section)
		}
	}
	bl := between(md, "## Bottom line\n", "\n## ")
	if strings.Contains(bl, "htmx's binary") {
		t.Errorf("the bottom line compares a binary that was not measured:\n%s", bl)
	}
	if want := "- graphql's binary is 1.57× rest's (22.0 vs 14.0 MB).\n"; !strings.Contains(bl, want) {
		t.Errorf("the bottom line lacks\n%s(lines of graphql were not counted)\n%s", want, bl)
	}
	if !strings.Contains(bl, "| graphql | 610 | 900 | 1.20 |") || !strings.Contains(bl, "| 44.0 | 22.0 | n/a |") {
		t.Errorf("the bottom line's graphql row does not show its lines as n/a:\n%s", bl)
	}
}

func TestSlowVerdict(t *testing.T) {
	run := fullRun(t)
	dir := written(t, run)
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	if !strings.Contains(md, "| read-many | htmx | 20 | 19.9 | 19.9 | 100.00% | 14.0 | 28.0 | 56.0 | 168 | 84,200 | 12.0% | 16.8% | 6.00 | n/a | 24.5 | 27.5 | 4.00 | 12.0% | slow: p99 56.0 ms is over the SLO |") {
		t.Errorf("report.md lacks the slow row of htmx read-many")
	}
	if !strings.Contains(md, "slow: it held the rate but its p99 was over the SLO") {
		t.Errorf("report.md does not explain slow")
	}
	doc := parseHTML(t, filepath.Join(dir, report.HTMLFile))
	slow := 0
	for _, tr := range elements(doc, "tr") {
		if attr(tr, "class") == "v-slow" {
			slow++
		}
	}
	if slow != 2 {
		t.Errorf("report.html colours %d rows slow, want 2", slow)
	}
	var b strings.Builder
	report.Summary(&b, run)
	for _, want := range []string{"slow: p99 56.0 ms is over the SLO", "Bottom line", "Capacity", "none below 50"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console summary lacks %q", want)
		}
	}
}

func parseHTML(t *testing.T, path string) *html.Node {
	t.Helper()
	page := readFile(t, path)
	checkBalanced(t, page)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	return doc
}

// elements are the elements named tag under n.
func elements(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == tag {
			out = append(out, d)
		}
	}
	return out
}

func keys(m map[string]*html.Node) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestMetricsSource shows where the figures of an app read from its
// metrics came from, how many replicas they add up, and the pool's wait
// beside its CPU.
func TestMetricsSource(t *testing.T) {
	run := fullRun(t)
	for i := range run.Results {
		if r := &run.Results[i]; r.App == "htmx" && r.AppCost.Available {
			r.AppCost.Source = results.SourceMetrics
			r.AppCost.Pool = &results.PoolCost{Acquires: 1500, AcquireWaitSeconds: 0.75, WaitMsPerRequest: 0.25, MaxConns: 20}
		}
	}
	find(t, run, "light", "read-one", "rest").AppCost.Source = results.SourceProc
	all := []*results.Result{}
	for i := range run.Results {
		all = append(all, &run.Results[i])
	}
	for _, c := range run.Capacities {
		all = append(all, c.Confirmation)
	}
	for _, r := range all {
		if r != nil && r.App == "graphql" && r.AppCost.Available {
			r.AppCost.Source, r.AppCost.Replicas = results.SourceMetrics, 2
		}
	}
	run.Capacities[0].Probes[0].PoolWaitMs, run.Capacities[0].Probes[0].PoolAvailable = 1.5, true
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))

	for _, want := range []string{
		// Its capacity confirmation was read from /proc.
		"App CPU and RSS came from the apps' metrics (Prometheus, 1 s scrapes, CPU in 10 ms ticks) for graphql (2 replicas, added up), htmx (6 of its 7 runs) and from /proc for rest.",
		"| read-one | htmx | 100 | 99.9 | 99.9 | 100.00% | 0.70 | 1.40 | 2.80 | 8.40 | 4,210 | 3.0% | 4.2% | 0.30 | 0.25 | 24.5 |",
		"| read-one | rest | 100 | 99.9 | 99.9 | 100.00% | 0.50 | 1.00 | 2.00 | 6.00 | 4,210 | 2.0% | 2.8% | 0.20 | n/a | 24.5 |",
		"| read-one | rest | 50 | 50.0 | 9.00 | 2% | 1.50 | met |",
		"| read-one | rest | 100 | 100.0 | 9.00 | 5% | n/a | met |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks\n%s", want)
		}
	}
}

// TestShardedRuns checks that a shard's report says its rates are its
// share and its per-request costs every shard's, and that a merged one
// states the load generators' cost as the shards' sum without that caveat.
func TestShardedRuns(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	shard := fullRun(t)
	shard.Settings.Shard = &results.Shard{Index: 1, Count: 2, StartAt: start}
	merged := fullRun(t)
	merged.Settings.Shards = 2
	merged.Runner.CPUMean, merged.Runner.CPUMax, merged.Runner.RSSMaxMB = 0.5, 0.75, 40

	mdShard := readFile(t, filepath.Join(written(t, shard), report.MarkdownFile))
	for _, want := range []string{
		"| load generators | shard 1 of 2, schedule from 2026-03-01T12:00:00Z |",
		"This runner was shard 1 of 2 of one schedule: it sent one request in 2,",
	} {
		if !strings.Contains(mdShard, want) {
			t.Errorf("a shard's report.md lacks\n%s", want)
		}
	}
	mdMerged := readFile(t, filepath.Join(written(t, merged), report.MarkdownFile))
	for _, want := range []string{
		"| load generators | 2 shards of one schedule, merged (bench merge) |",
		"Load generators (2 shards, merged): CPU mean 50.0% of one core, added up over the shards, max 75.0%; RSS max 40.0 MB, the largest shard's.",
	} {
		if !strings.Contains(mdMerged, want) {
			t.Errorf("a merged report.md lacks\n%s", want)
		}
	}
	for _, gone := range []string{"This runner was shard", "Load generator (this runner)"} {
		if strings.Contains(mdMerged, gone) {
			t.Errorf("a merged report.md says %q", gone)
		}
	}
}
