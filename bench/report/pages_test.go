package report_test

import (
	"path/filepath"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// pagesRun is a run of the page scenarios alone: page-person on the
// three front ends, cold and warm on the desktop, web-graphql's warm views
// with a saturated browser and two failed views, and page-vacancies on
// web-rest failed validation.
func pagesRun() *results.Run {
	run := runFrame()
	fronts := []string{"htmx", "web-rest", "web-graphql"}
	apis := map[string]string{"htmx": "htmx", "web-rest": "rest", "web-graphql": "graphql"}
	run.Settings.Scenarios, run.Settings.Apps, run.Settings.Rates = nil, nil, nil
	run.Settings.Profiles = []string{"light"}
	run.Settings.Pages = &results.PageSettings{
		Scenarios: []string{"page-person", "page-vacancies"}, FrontEnds: fronts, APIs: apis,
		Rates:   map[string]map[string]float64{"light": {"page-person": 1, "page-vacancies": 1}},
		Devices: []string{"desktop"}, Contexts: 3, Browser: "Chrome/120.0.6099.224", BrowserCPUs: "0",
	}
	wait := map[string]float64{"htmx": 180, "web-rest": 520, "web-graphql": 640}
	js := map[string]float64{"htmx": 48 * 1024, "web-rest": 190 * 1024, "web-graphql": 310 * 1024}
	for _, cache := range []string{results.CacheCold, results.CacheWarm} {
		for _, f := range fronts {
			p := results.PageResult{
				Profile: "light", Scenario: "page-person", FrontEnd: f, API: apis[f], Device: "desktop", Cache: cache,
				TargetRate: 1, Views: 15, Errors: []string{}, Verdict: results.VerdictOK,
				DataVisibleP50: wait[f], DataVisibleP95: wait[f] * 1.5, LCPP50: wait[f] * 0.9, LCPP95: wait[f] * 1.2,
				Bytes: js[f] + 30*1024, JSBytes: js[f], Requests: 4, ScriptMs: wait[f] / 4, TaskMs: wait[f] / 2,
				Server:  results.PageServerCost{APIMsPerView: 1.5, APIAvailable: true, PostgresMsPerView: 0.6, PostgresAvailable: true},
				Browser: results.PageBrowserCost{Available: true, CPUMean: 0.4, MsPerView: 400, Cores: 2},
			}
			if f != "htmx" {
				p.Server.StaticMsPerView, p.Server.StaticAvailable = 0.3, true
			}
			if cache == results.CacheWarm {
				p.DataVisibleP50, p.Bytes, p.JSBytes = wait[f]*0.7, 6*1024, 0
			}
			if cache == results.CacheWarm && f == "web-graphql" {
				p.Failed, p.Busy, p.Errors = 2, 2, []string{"no browser context free when the view was due"}
				p.Verdict, p.Reason = results.VerdictSaturated, "2 of 15 views failed"
				p.Browser.CPUMean, p.Browser.Saturated = 1.9, true
			}
			run.Pages = append(run.Pages, p)
		}
	}
	for _, f := range fronts {
		v := results.Validation{Scenario: "page-person", App: f, OK: true}
		run.Validations = append(run.Validations, v)
	}
	for _, f := range fronts {
		v := results.Validation{Scenario: "page-vacancies", App: f, OK: true}
		if f == "web-rest" {
			v.OK, v.Problem = false, "the page's marker was never painted (vacancies at http://127.0.0.1:1/vacancies)"
		}
		run.Validations = append(run.Validations, v)
	}
	for _, f := range fronts {
		p := results.PageResult{Profile: "light", Scenario: "page-vacancies", FrontEnd: f, API: apis[f], Device: "desktop", Cache: results.CacheCold,
			TargetRate: 1, Views: 15, Errors: []string{}, Verdict: results.VerdictOK, DataVisibleP50: 150, DataVisibleP95: 200, Bytes: 1024, Requests: 2,
			Server:  results.PageServerCost{APIMsPerView: 1, APIAvailable: true},
			Browser: results.PageBrowserCost{Available: true, CPUMean: 0.3, Cores: 2}}
		if f == "web-rest" {
			p = results.PageResult{Profile: "light", Scenario: "page-vacancies", FrontEnd: f, API: apis[f], Device: "desktop", Cache: results.CacheCold,
				TargetRate: 1, Errors: []string{}, Verdict: results.VerdictFailed, Reason: "validation failed: the page's marker was never painted"}
		}
		run.Pages = append(run.Pages, p)
	}
	return run
}

// TestPagesSection: the Pages section lists every page run with its
// figures, the site's static server as its own process, the saturated
// browser marked and warned of, a failed validation's run as not measured;
// the bottom line says what a person waits for and what a view costs; the
// HTML has the section and its chart, self-contained; results.json keeps
// the figures.
func TestPagesSection(t *testing.T) {
	run := pagesRun()
	dir := t.TempDir()
	if err := results.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	section := between(md, "## Pages\n", "\n## ")
	for _, want := range []string{
		"| profile | scenario | device | cache | front end | API | views/s | views ok/due | data visible p50 ms | p95 ms | LCP p50 ms | KB/view | JS KB/view | requests/view | script ms/view | server CPU-ms/view: API | static | PostgreSQL | total | browser cores | browser CPU-ms/view | verdict |",
		"| light | page-person | desktop | cold | htmx | htmx | 1 | 15/15 | 180 | 270 | 162 | 78.0 | 48.0 | 4.00 | 45.0 | 1.50 | in API | 0.60 | 2.10 | 0.40 of 2 | 400 | ok |",
		"| light | page-person | desktop | cold | web-rest | rest | 1 | 15/15 | 520 | 780 | 468 | 220 | 190 | 4.00 | 130 | 1.50 | 0.30 | 0.60 | 2.40 | 0.40 of 2 | 400 | ok |",
		"| light | page-person | desktop | warm | web-graphql | graphql | 1 | 13/15 | 448 |",
		"1.90 of 2 ⚠ saturated | 400 | saturated: 2 of 15 views failed |",
		"| light | page-vacancies | desktop | cold | web-rest | rest | 1 | n/a | n/a |",
		"failed: validation failed: the page's marker was never painted |",
		"Views in up to 3 browser context(s), devices desktop, browser Chrome/120.0.6099.224 on CPUs 0.",
		"### Failed page views",
		"| light | page-person | desktop | warm | web-graphql | 2 | 2 | no browser context free when the view was due |",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("Pages section lacks\n%s\nsection:\n%s", want, section)
		}
	}
	bottom := between(md, "## Bottom line\n", "\n## ")
	for _, want := range []string{
		"page-person (light, desktop, 1 views/s): a person waits for the data (p50, navigation start to its paint) cold 180 ms on htmx, 520 ms on web-rest and 640 ms on web-graphql; warm 126 ms on htmx, 364 ms on web-rest and 448 ms on web-graphql (browser saturated).",
		"One cold page-person view costs the servers: htmx 2.10 CPU-ms (the site 1.50 + PostgreSQL 0.60), 78.0 KB over the wire of which 48.0 KB JavaScript; web-rest 2.40 CPU-ms (API 1.50 + static 0.30 + PostgreSQL 0.60), 220 KB over the wire of which 190 KB JavaScript;",
	} {
		if !strings.Contains(bottom, want) {
			t.Errorf("bottom line lacks\n%s\nbottom line:\n%s", want, bottom)
		}
	}
	if strings.Contains(md, "## Results: light") {
		t.Error("a run of page scenarios alone has an empty Results section")
	}
	if v := between(md, "## Validation\n", "\n## "); !strings.Contains(v, "| page-vacancies | ok | FAILED | ok |") {
		t.Errorf("validation matrix lacks the front ends' page-vacancies:\n%s", v)
	}

	doc := parseHTML(t, filepath.Join(dir, report.HTMLFile))
	var h2s []string
	for _, h := range elements(doc, "h2") {
		h2s = append(h2s, text(h))
	}
	if !strings.Contains(strings.Join(h2s, "|"), "|Pages|") {
		t.Errorf("report.html has no Pages section: %v", h2s)
	}
	charts := 0
	for _, s := range elements(doc, "svg") {
		if strings.Contains(attr(s, "aria-label"), "time to data visible against view rate") {
			charts++
		}
	}
	if charts != 2 {
		t.Errorf("report.html has %d time-to-data charts, want 2 (page-person and page-vacancies on the desktop)", charts)
	}

	back, err := results.Read(filepath.Join(dir, results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Pages) != len(run.Pages) || back.Pages[0].Server.PostgresMsPerView != 0.6 || back.Settings.Pages == nil || back.Settings.Pages.APIs["web-rest"] != "rest" {
		t.Errorf("results.json did not keep the page figures: %+v", back.Pages)
	}
}

// TestPagesRowOrder: rows recorded out of order, one group's front ends
// between another's, come out grouped in the order each group was first
// recorded, their front ends in the layout's order.
func TestPagesRowOrder(t *testing.T) {
	run := pagesRun()
	person := run.Pages[:6] // cold htmx, web-rest, web-graphql, then warm
	run.Pages = []results.PageResult{person[4], person[2], person[3], person[1], person[5], person[0]}
	dir := t.TempDir()
	if err := report.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	section := between(readFile(t, filepath.Join(dir, report.MarkdownFile)), "## Pages\n", "\n## ")
	var got []string
	for _, line := range strings.Split(section, "\n") {
		if cells := strings.Split(line, " | "); len(cells) > 10 && cells[0] == "| light" {
			got = append(got, cells[3]+" "+cells[4])
		}
	}
	want := []string{"warm htmx", "warm web-rest", "warm web-graphql", "cold htmx", "cold web-rest", "cold web-graphql"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("table rows %v, want %v", got, want)
	}
}
