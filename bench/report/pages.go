package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"crudbench/bench/results"
)

// pagesHowTo heads the Pages section.
const pagesHowTo = "Each page scenario opens a front end's page in headless Chromium at a constant rate of views (open model: a view due while every browser context is busy fails, it is never started late; one view at a time in each), signed in (a session from one sign-in per run: a view's cost is the page's, not a password check's). " +
	"Cold views each open a fresh browser context and load everything with the cache off; warm views are a returning visitor's: each browser context of the run viewed the page once before the measured window, unmeasured and outside the servers' CPU sample, and every warm view opens a tab of its own in one of them, so the bundle comes from that context's cache. Mobile is DevTools' Fast 3G with 4× CPU throttling. " +
	"Data visible is navigation start to the paint of the marker after the page's data (Element Timing, read in the page), LCP the largest contentful paint by then, both from the browser; bytes are what came over the wire per view (JS: scripts), requests per view, script the main thread's script time. " +
	"Static files (scripts, style sheets, a single-page app's index.html) are gzip-compressed once, at the server's start, for every front end alike, and sent so to a browser that accepts gzip; the API's answers and the site's pages are not compressed, as the API apps are measured everywhere else. " +
	"Server CPU is CPU-ms per view started, of the API app (a site's own process), the static server (a single-page app's: a site serves its own files) and PostgreSQL, over the measured window alike for cold and warm rows; the browser's is load-generator CPU on the runner's side, and a saturated browser (⚠) measures itself, not the app."

// pageRows are run's page results in the layout's order of front ends,
// otherwise as run recorded them: its groups of one profile, scenario,
// device and cache in the order it first recorded each.
func pageRows(run *results.Run, l layout) []*results.PageResult {
	type group struct{ profile, scenario, device, cache string }
	key := func(r *results.PageResult) group { return group{r.Profile, r.Scenario, r.Device, r.Cache} }
	rs := make([]*results.PageResult, len(run.Pages))
	order := map[group]int{}
	for i := range run.Pages {
		rs[i] = &run.Pages[i]
		if _, ok := order[key(rs[i])]; !ok {
			order[key(rs[i])] = len(order)
		}
	}
	// A total order: rows of different groups compared equal would not be
	// one, and a sort may then misplace them.
	slices.SortStableFunc(rs, func(a, b *results.PageResult) int {
		return cmp.Or(cmp.Compare(order[key(a)], order[key(b)]),
			cmp.Compare(slices.Index(l.apps, a.FrontEnd), slices.Index(l.apps, b.FrontEnd)))
	})
	return rs
}

// pagesTable is one row per page run.
func pagesTable(run *results.Run, l layout) table {
	t := table{Header: []string{"profile", "scenario", "device", "cache", "front end", "API", "views/s", "views ok/due", "data visible p50 ms", "p95 ms", "LCP p50 ms",
		"KB/view", "JS KB/view", "requests/view", "script ms/view", "server CPU-ms/view: API", "static", "PostgreSQL", "total", "browser cores", "browser CPU-ms/view", "verdict"}}
	t.Right = make([]bool, len(t.Header))
	for i := 6; i < len(t.Header)-1; i++ {
		t.Right[i] = true
	}
	for _, r := range pageRows(run, l) {
		cells := texts(r.Profile, r.Scenario, r.Device, r.Cache, r.FrontEnd, r.API, rateText(r.TargetRate))
		measured := r.Verdict == results.VerdictOK || r.Verdict == results.VerdictSaturated
		painted := measured && r.Painted() > 0
		fig := func(ok bool, s string) string {
			if !ok {
				return na
			}
			return s
		}
		cells = append(cells, texts(
			fig(measured, fmt.Sprintf("%d/%d", r.Painted(), r.Views)),
			fig(painted, thousands(r.DataVisibleP50)), fig(painted, thousands(r.DataVisibleP95)), fig(painted, thousands(r.LCPP50)),
			fig(painted, human(r.Bytes/1024)), fig(painted, human(r.JSBytes/1024)), fig(painted, human(r.Requests)), fig(painted, human(r.ScriptMs)),
			fig(measured && r.Server.APIAvailable, human(r.Server.APIMsPerView)),
			staticCell(r, measured),
			fig(measured && r.Server.PostgresAvailable, human(r.Server.PostgresMsPerView)),
			fig(measured && r.Server.APIAvailable, human(r.Server.TotalMsPerView())),
			fig(measured && r.Browser.Available, browserCoresText(r)),
			fig(measured && r.Browser.Available, human(r.Browser.MsPerView)),
		)...)
		v := r.Verdict
		if r.Reason != "" {
			v += ": " + r.Reason
		}
		cells = append(cells, cell{Text: v, Verdict: true})
		t.Rows = append(t.Rows, row{Cells: cells, Class: r.Verdict})
	}
	return t
}

// staticCell is the static server's CPU per view: "in API" for a site,
// which serves its own files.
func staticCell(r *results.PageResult, measured bool) string {
	switch {
	case !measured:
		return na
	case r.API == r.FrontEnd:
		return "in API"
	case !r.Server.StaticAvailable:
		return na
	}
	return human(r.Server.StaticMsPerView)
}

// browserCoresText is the browser's mean CPU in cores of its side's,
// marked when it was saturated.
func browserCoresText(r *results.PageResult) string {
	s := fixed(r.Browser.CPUMean, 2)
	if r.Browser.Cores > 0 {
		s += " of " + fmt.Sprint(r.Browser.Cores)
	}
	if r.Browser.Saturated {
		s += " ⚠ saturated"
	}
	return s
}

// pageErrors lists the first distinct reasons page views failed.
func pageErrors(run *results.Run, l layout) table {
	t := table{Header: []string{"profile", "scenario", "device", "cache", "front end", "failed", "busy", "errors"}, Right: []bool{false, false, false, false, false, true, true, false}}
	for _, r := range pageRows(run, l) {
		if len(r.Errors) == 0 {
			continue
		}
		cells := texts(r.Profile, r.Scenario, r.Device, r.Cache, r.FrontEnd, fmt.Sprint(r.Failed), fmt.Sprint(r.Busy))
		cells = append(cells, cell{Text: strings.Join(r.Errors, "; "), Wrap: true})
		t.Rows = append(t.Rows, row{Cells: cells})
	}
	return t
}

// pageSentences are the bottom line of the page scenarios: for each, on
// the first profile and device measured, what a person waits for on each
// front end, cold and warm, and what one view costs the servers.
func pageSentences(run *results.Run, l layout) []string {
	if len(run.Pages) == 0 {
		return nil
	}
	rs := pageRows(run, l)
	first := rs[0]
	var out []string
	var scenarios []string
	for _, r := range rs {
		if !slices.Contains(scenarios, r.Scenario) {
			scenarios = append(scenarios, r.Scenario)
		}
	}
	for _, sc := range scenarios {
		pick := func(cache string) []*results.PageResult {
			var ps []*results.PageResult
			for _, r := range rs {
				if r.Scenario == sc && r.Profile == first.Profile && r.Device == first.Device && r.Cache == cache && r.Painted() > 0 &&
					(r.Verdict == results.VerdictOK || r.Verdict == results.VerdictSaturated) {
					ps = append(ps, r)
				}
			}
			return ps
		}
		cold, warm := pick(results.CacheCold), pick(results.CacheWarm)
		if len(cold)+len(warm) == 0 {
			continue
		}
		where := fmt.Sprintf("%s (%s, %s, %s views/s)", sc, first.Profile, first.Device, rateText(cold0(cold, warm).TargetRate))
		var waits []string
		for _, set := range []struct {
			name string
			rs   []*results.PageResult
		}{{"cold", cold}, {"warm", warm}} {
			if len(set.rs) == 0 {
				continue
			}
			var each []string
			for _, r := range set.rs {
				each = append(each, fmt.Sprintf("%s ms on %s%s", thousands(r.DataVisibleP50), r.FrontEnd, saturatedMark(r)))
			}
			waits = append(waits, set.name+" "+listText(each))
		}
		out = append(out, fmt.Sprintf("%s: a person waits for the data (p50, navigation start to its paint) %s.", where, strings.Join(waits, "; ")))
		var costs []string
		for _, r := range cold {
			if !r.Server.APIAvailable {
				continue
			}
			parts := []string{"API " + human(r.Server.APIMsPerView)}
			if r.API == r.FrontEnd {
				parts = []string{"the site " + human(r.Server.APIMsPerView)}
			} else if r.Server.StaticAvailable {
				parts = append(parts, "static "+human(r.Server.StaticMsPerView))
			}
			if r.Server.PostgresAvailable {
				parts = append(parts, "PostgreSQL "+human(r.Server.PostgresMsPerView))
			}
			costs = append(costs, fmt.Sprintf("%s %s CPU-ms (%s), %s KB over the wire of which %s KB JavaScript", r.FrontEnd, human(r.Server.TotalMsPerView()), strings.Join(parts, " + "), human(r.Bytes/1024), human(r.JSBytes/1024)))
		}
		if len(costs) > 0 {
			out = append(out, fmt.Sprintf("One cold %s view costs the servers: %s.", sc, strings.Join(costs, "; ")))
		}
	}
	return out
}

// cold0 is the first of cold, else of warm.
func cold0(cold, warm []*results.PageResult) *results.PageResult {
	if len(cold) > 0 {
		return cold[0]
	}
	return warm[0]
}

// saturatedMark flags a figure its browser's saturation makes the
// browser's.
func saturatedMark(r *results.PageResult) string {
	if r.Browser.Saturated {
		return " (browser saturated)"
	}
	return ""
}

// pagesSettingsLine says how the page scenarios ran, under the table.
func pagesSettingsLine(run *results.Run) string {
	s := run.Settings.Pages
	if s == nil {
		return ""
	}
	line := fmt.Sprintf("Views in up to %d browser context(s), devices %s", s.Contexts, strings.Join(s.Devices, ", "))
	if s.Browser != "" {
		line += ", browser " + s.Browser
	}
	if s.BrowserCPUs != "" {
		line += " on CPUs " + s.BrowserCPUs
	}
	return line + "."
}

// pageRate is a page scenario's views per second in a profile.
func pageRate(run *results.Run, profile, scenario string) (float64, bool) {
	if run.Settings.Pages == nil {
		return 0, false
	}
	v, ok := run.Settings.Pages.Rates[profile][scenario]
	return v, ok
}

// pageChartPoint is one front end's time to data at one view rate.
type pageChartPoint struct {
	rate, p50, p95 float64
	held           bool
}

// pageCharts draws, per page scenario and device, the time to data (p50
// solid cold, dashed warm) of each front end against the view rate.
func pageCharts(run *results.Run, l layout) []template.HTML {
	type key struct{ scenario, device string }
	var keys []key
	by := map[key]map[string]map[string][]pageChartPoint{} // key → front end → cache → points
	for _, r := range pageRows(run, l) {
		if r.Painted() == 0 || !(r.Verdict == results.VerdictOK || r.Verdict == results.VerdictSaturated) {
			continue
		}
		k := key{r.Scenario, r.Device}
		if by[k] == nil {
			keys = append(keys, k)
			by[k] = map[string]map[string][]pageChartPoint{}
		}
		if by[k][r.FrontEnd] == nil {
			by[k][r.FrontEnd] = map[string][]pageChartPoint{}
		}
		by[k][r.FrontEnd][r.Cache] = append(by[k][r.FrontEnd][r.Cache], pageChartPoint{r.TargetRate, r.DataVisibleP50, r.DataVisibleP95, r.Verdict == results.VerdictOK && !r.Browser.Saturated})
	}
	var charts []template.HTML
	for _, k := range keys {
		charts = append(charts, pageChart(l, k.scenario, k.device, by[k]))
	}
	return charts
}

// pageChart draws one scenario's and device's time to data against the
// view rate: a line per front end and cache, a dot at a rate every view
// held, a cross where views failed or the browser was saturated.
func pageChart(l layout, scenario, device string, fronts map[string]map[string][]pageChartPoint) template.HTML {
	const w, h, left, right, top, bottom = 560.0, 310.0, 52.0, 14.0, 46.0, 40.0
	title := scenario + " (" + device + "): time to data visible against view rate"
	s := newSVG(w, h, title)
	s.text(4, 14, "start", "title", title)
	var maxX, maxY float64
	var names []string
	for _, a := range l.apps {
		if fronts[a] != nil {
			names = append(names, a)
		}
	}
	for _, name := range names {
		for _, pts := range fronts[name] {
			for _, p := range pts {
				maxX, maxY = max(maxX, p.rate), max(maxY, p.p50)
			}
		}
	}
	x := newScale(0, maxX, left, w-right)
	y := newScale(0, maxY, h-bottom, top)
	gridY(s, y, left, w-right)
	gridX(s, x, top, h-bottom)
	s.text(w-right, h-6, "end", "small", "page views/s")
	s.text(4, top-6, "start", "small", "ms, p50")
	appsLegend(s, l, names, w-right, "solid cold · dashed warm · ✕ failed views or busy browser")
	for _, name := range names {
		color := l.color(name)
		for _, cache := range []string{results.CacheCold, results.CacheWarm} {
			pts := slices.Clone(fronts[name][cache])
			if len(pts) == 0 {
				continue
			}
			slices.SortFunc(pts, func(a, b pageChartPoint) int { return cmp.Compare(a.rate, b.rate) })
			line := make([]point, len(pts))
			for i, p := range pts {
				line[i] = point{x.at(p.rate), y.at(p.p50)}
			}
			dash := ""
			if cache == results.CacheWarm {
				dash = "4 3"
			}
			s.path(line, color, dash, name+" "+cache)
			for i, p := range pts {
				s.marker(line[i], color, p.held, fmt.Sprintf("%s, %s at %s views/s: data visible p50 %s ms, p95 %s ms", name, cache, rateText(p.rate), thousands(p.p50), thousands(p.p95)))
			}
		}
	}
	s.line(left, h-bottom, w-right, h-bottom, "axis")
	s.line(left, top, left, h-bottom, "axis")
	return s.html()
}

// pagesView is the Pages section of report.html; nil when no page
// scenario ran.
type pagesView struct {
	HowTo, Settings string
	Sentences       []string
	Table, Errors   table
	Charts          []template.HTML
}

// pagesSection is the Pages section, nil without page results.
func pagesSection(run *results.Run, l layout) *pagesView {
	if len(run.Pages) == 0 {
		return nil
	}
	return &pagesView{HowTo: pagesHowTo, Settings: pagesSettingsLine(run), Sentences: pageSentences(run, l),
		Table: pagesTable(run, l), Errors: pageErrors(run, l), Charts: pageCharts(run, l)}
}

// writeMDPages writes the Pages section, when page scenarios ran.
func writeMDPages(b *bytes.Buffer, run *results.Run, l layout) {
	v := pagesSection(run, l)
	if v == nil {
		return
	}
	b.WriteString("## Pages\n\n" + mdText(v.HowTo) + "\n\n")
	for _, s := range v.Sentences {
		b.WriteString("- " + mdText(s) + "\n")
	}
	if len(v.Sentences) > 0 {
		b.WriteString("\n")
	}
	writeMDTable(b, v.Table)
	if v.Settings != "" {
		b.WriteString(mdText(v.Settings) + "\n\n")
	}
	if len(v.Errors.Rows) > 0 {
		b.WriteString("### Failed page views\n\n")
		writeMDTable(b, v.Errors)
	}
}
