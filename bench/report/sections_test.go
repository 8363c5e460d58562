package report_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

func TestCapacitySection(t *testing.T) {
	run := fullRun(t)
	dir := written(t, run)
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	section := between(md, "## Capacity\n", "\n## ")
	for _, want := range []string{
		"p99 within 50 ms, success at least 99.9% and throughput at least 99% of the rate",
		"| read-one | rest | 1450 | found | the app used its CPU: app 1.92 of 2 cores | 2000 | held the SLO | 1450.0 | 0.50 | 31.0 | 72.5% |",
		"| read-one | htmx | ≥ 700 (machine-bound: load-generator) | found | the load generator sent 637 of 700 req/s: it fell behind its schedule | ≥ 952 | held the SLO |",
		"written ≥ N (machine-bound: the reason), a lower bound of the app's capacity",
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
	// The probe on a busy machine names who was busy.
	busy := 0
	for _, d := range details {
		if text(elements(d, "summary")[0]) != "read-small · htmx" {
			continue
		}
		busy++
		if got, want := text(d), "95% (sha256sum 81%, kworker/1:2 10%)"; !strings.Contains(got, want) {
			t.Errorf("read-small · htmx probes lack the other processes %q:\n%s", want, got)
		}
	}
	if busy != 1 {
		t.Errorf("report.html has %d probe blocks of read-small · htmx, want 1", busy)
	}
}

// TestCapacityMissAt96Percent: a confirmation that kept 96% of its rate
// has the verdict ok, yet missed the capacity SLO: the report says what it
// missed in the probes' words and colours it as a run that did not hold
// its rate, not as ok.
func TestCapacityMissAt96Percent(t *testing.T) {
	run := fullRun(t)
	graphql := &run.Capacities[4] // read-small, 900
	graphql.Held = false
	graphql.Confirmation.Throughput = 0.96 * graphql.Rate
	graphql.Confirmation.Judge(50 * time.Millisecond)
	if graphql.Confirmation.Verdict != results.VerdictOK {
		t.Fatalf("a confirmation at 96%% of its rate has the verdict %s, want ok", graphql.Confirmation.Verdict)
	}
	dir := written(t, run)
	section := between(readFile(t, filepath.Join(dir, report.MarkdownFile)), "## Capacity\n", "\n## ")
	if want := "| read-small | graphql | 900 (unconfirmed) | found | latency grew with CPU to spare: app 1.10 of 2 cores | 1250 | missed the SLO (throughput 864 req/s under 99% of 900 req/s) |"; !strings.Contains(section, want) {
		t.Errorf("capacity section lacks\n%s\nsection:\n%s", want, section)
	}
	doc := parseHTML(t, filepath.Join(dir, report.HTMLFile))
	rows := 0
	for _, tr := range elements(doc, "tr") {
		if cells := elements(tr, "td"); len(cells) > 2 && text(cells[0]) == "read-small" && text(cells[1]) == "graphql" && strings.Contains(text(tr), "missed the SLO") {
			rows++
			if got := attr(tr, "class"); got != "v-"+results.VerdictSaturated {
				t.Errorf("the row of a confirmation at 96%% of its rate has class %q, want v-saturated", got)
			}
		}
	}
	if rows != 1 {
		t.Errorf("%d capacity rows of read-small · graphql, want 1", rows)
	}
}

// TestCapacityStepDown: a capacity that stood only a step below the
// probes' rate names the confirmation that missed above it, and one whose
// confirmations all missed names the lower rates too; both show in the
// latency-against-load chart.
func TestCapacityStepDown(t *testing.T) {
	run := fullRun(t)
	missed := func(c *results.Capacity, rate float64) results.Result {
		r := *confirmation(c.Scenario, c.App, rate, 0.6, 30)
		r.Verdict, r.Reason, r.Latency.P99 = results.VerdictSlow, "p99 80.0 ms is over the 50ms SLO", 80
		return r
	}
	rest := &run.Capacities[0] // read-one, 1450 held
	rest.Found, rest.Missed = 1611, []results.Result{missed(rest, 1611)}
	graphql := &run.Capacities[4] // read-small, 900
	graphql.Held = false
	graphql.Confirmation.Verdict, graphql.Confirmation.Reason, graphql.Confirmation.Latency.P99 = results.VerdictSlow, "p99 90.0 ms is over the 50ms SLO", 90
	graphql.Missed = []results.Result{missed(graphql, 810), missed(graphql, 729)}

	dir := written(t, run)
	section := between(readFile(t, filepath.Join(dir, report.MarkdownFile)), "## Capacity\n", "\n## ")
	for _, want := range []string{
		"when it misses the SLO, another confirms 90% of that rate, up to 3 runs",
		"| read-one | rest | 1450 | found | the app used its CPU: app 1.92 of 2 cores | 2000 | held the SLO; missed it at 1611 req/s (p99 80 ms over the 50 ms SLO) |",
		"| read-small | graphql | 900 (unconfirmed) | found | latency grew with CPU to spare: app 1.10 of 2 cores | 1250 | missed the SLO (p99 90 ms over the 50 ms SLO); missed at 810 and 729 req/s too |",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("capacity section lacks\n%s\nsection:\n%s", want, section)
		}
	}
	doc := parseHTML(t, filepath.Join(dir, report.HTMLFile))
	for _, s := range elements(doc, "svg") {
		if attr(s, "aria-label") == "read-one: latency against offered rate" && !strings.Contains(text(s), "1611") {
			t.Errorf("the read-one chart has no point at the missed confirmation's 1611 req/s:\n%s", text(s))
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
		"| rest | Go 1.26.0 | chi 5.5.0, pgx 5.12.0 | 800 | 0 | 650 | 120 | 5,400 | 9 / 41 | 14.0 | 180 | 12.5 | – |",
		"| graphql | Go 1.26.0 | chi 5.5.0, pgx 5.12.0 | n/a | n/a | n/a | n/a | n/a | 9 / 41 | 22.0 | 240 | 18.2 | attached without a source tree: no lines counted |",
		"| htmx | Go 1.26.0 | chi 5.5.0, pgx 5.12.0 | 1,000 | 0 | 650 | 120 | 5,400 | n/a | n/a | n/a | n/a | attached by URL: no binary and no start to time |",
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

// TestCPUs checks that the settings state which CPUs each side had, the
// apps' once when they agree and app by app when not.
func TestCPUs(t *testing.T) {
	tests := []struct {
		name string
		cpus results.CPUs
		want string
	}{
		{"isolated", results.CPUs{Isolated: true, Auto: true, Runner: "0", Postgres: "0", Apps: map[string]string{"rest": "1", "graphql": "1"}, AppCores: 1},
			"| CPUs | isolated (-cpus auto): apps 1; PostgreSQL 0; runner 0 |"},
		{"attached apps of their own", results.CPUs{Runner: "0-1", Apps: map[string]string{"rest": "2-3", "graphql": "0-3"}},
			"| CPUs | shared: graphql 0-3, rest 2-3; PostgreSQL n/a; runner 0-1 |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := fullRun(t)
			run.Settings.CPUs = &tt.cpus
			if md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile)); !strings.Contains(md, tt.want) {
				t.Errorf("report.md lacks\n%s", tt.want)
			}
		})
	}
}
