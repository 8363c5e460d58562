package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"crudbench/bench/pages"
	"crudbench/bench/report"
	"crudbench/bench/results"
)

// TestPages runs the page scenarios as a user does, in the embedded mode:
// a throwaway PostgreSQL, the htmx site, rest and graphql built and
// started, the single-page app built twice and each build's static server
// started in front of its API, one headless Chromium viewing every front
// end's pages at half a view a second, in two contexts, cold and warm.
// It checks that every front end validated, that the views painted their
// marker, that warm views fetched no JavaScript, that the servers' and the
// browser's CPU per view were read, and
// that the report has the Pages section; it asserts no time a loaded
// machine moves.
func TestPages(t *testing.T) {
	requireNode(t)
	if _, err := pages.FindChromium(); err != nil {
		t.Fatal(err)
	}
	fronts := []string{"htmx", "web-rest", "web-graphql"}
	scenarios := []string{"page-person", "page-vacancies"}
	run, dir, console := runBench(t, []string{"DATABASE_URL="},
		"-apps", strings.Join(fronts, ","), "-scenarios", strings.Join(scenarios, ","),
		"-rate", "page-person=0.5,page-vacancies=0.5", "-page-contexts", "2",
		"-warmup", "0s", "-duration", "4s", "-cooldown", "0s", "-prime", "0s", "-repeat", "2")

	for _, f := range fronts {
		for _, sc := range scenarios {
			ok := false
			for _, v := range run.Validations {
				if v.App == f && v.Scenario == sc {
					ok = v.OK
					if !v.OK {
						t.Errorf("%s on %s failed validation: %s", sc, f, v.Problem)
					}
				}
			}
			if !ok && !t.Failed() {
				t.Errorf("no validation of %s on %s", sc, f)
			}
		}
	}
	// -repeat repeats the API scenarios only: the page scenarios ran once,
	// and the report says so rather than pass one run off as two.
	if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, "The page scenarios ran once each, not 2 times") }) {
		t.Errorf("no note that -repeat 2 left the page scenarios at one run each; notes: %q", run.Notes)
	}
	if len(run.Results) != 0 {
		t.Errorf("%d API results from a run of page scenarios alone, want none", len(run.Results))
	}
	if s := run.Settings.Pages; s == nil || s.APIs["web-rest"] != "rest" || s.APIs["web-graphql"] != "graphql" || s.APIs["htmx"] != "htmx" || s.Browser == "" || s.BrowserCPUs != run.Settings.CPUs.Runner {
		t.Errorf("page settings %+v, want each front end's API, the browser's version and the runner's CPUs (%s)", s, run.Settings.CPUs.Runner)
	}
	if want := len(fronts) * len(scenarios) * 2; len(run.Pages) != want {
		t.Fatalf("%d page results, want %d (front ends × scenarios × cold, warm)", len(run.Pages), want)
	}
	for _, p := range run.Pages {
		t.Run(fmt.Sprintf("%s/%s/%s", p.Scenario, p.Cache, p.FrontEnd), func(t *testing.T) {
			checkPage(t, p)
		})
	}

	b, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	section := md[strings.Index(md, "## Pages\n")+1:]
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	for _, f := range fronts {
		for _, sc := range scenarios {
			if !strings.Contains(section, fmt.Sprintf("| %s | desktop | cold | %s |", sc, f)) {
				t.Errorf("the Pages section has no cold %s row of %s:\n%s", sc, f, section)
			}
		}
	}
	if !strings.Contains(console, "Chromium is up") || !strings.Contains(console, "\nPages\n") {
		t.Error("the console says nothing of the browser or the Pages summary")
	}
}

// checkPage checks one page run: measured, its views painted their marker
// with figures from the browser, and the CPU per view of the API, the
// static server (a single-page app's), PostgreSQL and the browser read and
// sane.
func checkPage(t *testing.T, p results.PageResult) {
	t.Helper()
	if p.Verdict != results.VerdictOK && p.Verdict != results.VerdictSaturated {
		t.Fatalf("verdict %s (%s), errors %v", p.Verdict, p.Reason, p.Errors)
	}
	if p.Views == 0 || p.Painted() == 0 {
		t.Fatalf("%d of %d views painted the marker: %v", p.Painted(), p.Views, p.Errors)
	}
	if p.DataVisibleP50 <= 0 || p.DataVisibleP95 < p.DataVisibleP50 || p.LCPP50 <= 0 || p.Bytes <= 0 || p.Requests < 1 {
		t.Errorf("implausible view figures: data visible p50 %v p95 %v, LCP %v, %v bytes, %v requests", p.DataVisibleP50, p.DataVisibleP95, p.LCPP50, p.Bytes, p.Requests)
	}
	spa := p.FrontEnd != "htmx"
	if spa && p.Cache == results.CacheCold && p.JSBytes <= 0 {
		t.Errorf("a cold view of the single-page app fetched no JavaScript")
	}
	// A warm view is a returning visitor's, in a context warmed before
	// the window: its scripts come from the cache.
	if p.Cache == results.CacheWarm && p.JSBytes != 0 {
		t.Errorf("a warm view fetched %v bytes of JavaScript, want the cached bundle", p.JSBytes)
	}
	// A view costs the servers something, and not seconds of CPU; a warm
	// run's is its own views', measured as a cold run's is.
	const most = 5000.0 // CPU-ms per view
	s := p.Server
	if !s.APIAvailable || s.APIMsPerView <= 0 || s.APIMsPerView > most {
		t.Errorf("API CPU per view %v ms (available %v)", s.APIMsPerView, s.APIAvailable)
	}
	if !s.PostgresAvailable || s.PostgresMsPerView < 0 || s.PostgresMsPerView > most {
		t.Errorf("PostgreSQL CPU per view %v ms (available %v)", s.PostgresMsPerView, s.PostgresAvailable)
	}
	switch {
	case spa && (!s.StaticAvailable || s.StaticMsPerView <= 0 || s.StaticMsPerView > most):
		t.Errorf("static server's CPU per view %v ms (available %v)", s.StaticMsPerView, s.StaticAvailable)
	case !spa && s.StaticAvailable:
		t.Errorf("the site has a static server of its own: %v ms per view", s.StaticMsPerView)
	}
	b := p.Browser
	if !b.Available || b.CPUMean <= 0 || b.MsPerView <= 0 || b.Cores < 1 {
		t.Errorf("browser CPU %+v, want it read", b)
	}
}
