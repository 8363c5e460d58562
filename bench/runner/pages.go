package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/cpuset"
	"crudbench/bench/pages"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db"
	"crudbench/db/seed"
)

// frontEnd is one front end the page scenarios view, as setup brought it
// up: a site app, which renders its pages and serves its files itself, or
// a row of stack.FrontEnds, a static server in front of its API.
type frontEnd struct {
	name string
	// api names the app whose answers the pages show (the site itself);
	// url is where the pages are.
	api, url string
	// apiPID is the API's process (the site's own), read as a tree when
	// apiTree; staticPID the static server's, 0 for a site. 0 is a
	// process the runner cannot read.
	apiPID    int
	apiTree   bool
	staticPID int
}

// pageRows are the rows setup starts for the page scenarios beyond
// cfg.Apps: apis, each site front end and each API a front end of the
// table fronts that is not among them; fronts, the front ends of the
// table, which start after the APIs whose URLs they are given.
func pageRows(cfg config.Config) (apis, fronts []stack.App) {
	add := func(name string) {
		if slices.Contains(cfg.Apps, name) || slices.ContainsFunc(apis, func(a stack.App) bool { return a.Name == name }) {
			return
		}
		if row, ok := stack.FindBuiltin(name); ok {
			apis = append(apis, row)
		}
	}
	for _, name := range cfg.Pages.FrontEnds {
		if row, ok := stack.FindFrontEnd(name); ok {
			add(row.Fronts)
			fronts = append(fronts, row)
			continue
		}
		add(name)
	}
	return apis, fronts
}

// frontOf is the front end of the table's row started as p, in front of
// api.
func (s *appStart) frontOf(row stack.App, p *stack.Process, api *appUnderTest) *frontEnd {
	f := &frontEnd{name: row.Name, api: row.Fronts, url: p.URL, apiPID: api.pid, apiTree: api.tree, staticPID: p.PID}
	if s.cfg.NoProc {
		f.staticPID = 0
	}
	return f
}

// frontEnds are the front ends of the run, in report order, once setup
// has started (or attached) them: the table's from appStart, the sites
// from the apps.
func (r *runner) frontEnds() []*frontEnd {
	var out []*frontEnd
	for _, name := range r.cfg.Pages.FrontEnds {
		if f, ok := r.webs[name]; ok {
			out = append(out, f)
			continue
		}
		if u := r.apps[name]; u != nil && u.app != nil && u.unusable == nil {
			out = append(out, &frontEnd{name: name, api: name, url: u.app.BaseURL, apiPID: u.pid, apiTree: u.tree})
		}
	}
	return out
}

// pageProcesses adds to pids the processes setup started for the page
// scenarios beyond the apps — the front ends' static servers and the APIs
// and sites started only for them — and returns their names, in report
// order.
func (r *runner) pageProcesses(pids map[string]int) []string {
	var names []string
	add := func(name string, pid int) {
		if _, ok := pids[name]; !ok && pid > 0 {
			pids[name] = pid
			names = append(names, name)
		}
	}
	for _, f := range r.frontEnds() {
		if u := r.apps[f.api]; u != nil {
			add(f.api, u.pid)
		}
		add(f.name, f.staticPID)
	}
	return names
}

// pageViews is the phase of the page scenarios: one headless Chromium,
// started on the runner's side of -cpus (it is load-generator CPU), views
// every front end's pages, first once each to validate them, then at the
// profiles' view rates in every device and cache, while the API's, the
// static server's, PostgreSQL's and the browser's processes are sampled.
type pageViews struct {
	cfg   config.Config
	con   *console
	notes *notebook
	// fronts are the front ends, dbPID PostgreSQL's postmaster (0: not
	// read), vacancies how many the dataset holds (0: unknown).
	fronts    []*frontEnd
	dbPID     int
	vacancies int64
	// login signs in to an app as the editor (runner.Login).
	login func(ctx context.Context, app string) (*scenario.Session, error)

	browser *pages.Browser
	// problems holds what validation found wrong with each (scenario,
	// front end); nil for a pair that passed.
	problems map[[2]string]error
}

// viewPages runs the page scenarios into run: their validations and
// results.
func (r *runner) viewPages(ctx context.Context, run *results.Run, measure bool) {
	if len(r.cfg.Pages.Scenarios) == 0 {
		return
	}
	if r.cfg.Shard != nil {
		r.note("The page scenarios did not run: a sharded run splits one schedule of requests between runners, and a page view is no request of it.")
		return
	}
	if r.cfg.Repeat > 1 && measure {
		r.note(fmt.Sprintf("The page scenarios ran once each, not %d times: -repeat repeats the API scenarios' runs and capacity searches, each on a freshly started app, while a front end's static server is started once, in front of its API.", r.cfg.Repeat))
	}
	pv := &pageViews{cfg: r.cfg, con: r.con, notes: &r.book, fronts: r.frontEnds(), dbPID: r.dbPID, vacancies: run.Environment.Dataset["vacancy"], login: r.Login}
	run.Settings.Pages = pv.settings()
	b, err := pages.Start()
	if err != nil {
		r.con.printf("The page scenarios need a browser: %v\n", err)
	} else {
		pv.browser = b
		defer b.Close()
		run.Settings.Pages.Browser = b.Version()
		if s, err := cpuset.Allowed(b.PID()); err == nil {
			run.Settings.Pages.BrowserCPUs = s.String()
		}
		r.con.printf("Chromium is up (pid %d, %s) on the runner's CPUs (%s).\n", b.PID(), run.Settings.Pages.Browser, orUnknown(run.Settings.Pages.BrowserCPUs))
	}
	run.Validations = append(run.Validations, pv.validate(ctx, err)...)
	if measure {
		run.Pages = append(run.Pages, pv.measureAll(ctx)...)
	}
}

// settings are the phase's settings as results.json records them.
func (pv *pageViews) settings() *results.PageSettings {
	s := &results.PageSettings{Scenarios: pv.cfg.Pages.Scenarios, FrontEnds: pv.cfg.Pages.FrontEnds, APIs: map[string]string{},
		Rates: pv.cfg.Pages.Rates, Devices: pv.cfg.Pages.Devices, Contexts: pv.cfg.Pages.Contexts}
	for _, name := range pv.cfg.Pages.FrontEnds {
		s.APIs[name] = name
		if row, ok := stack.FindFrontEnd(name); ok {
			s.APIs[name] = row.Fronts
		}
	}
	return s
}

// page is scenario sc's page of front end f.
func (pv *pageViews) page(sc string, f *frontEnd) pages.Page {
	pw := pv.cfg.Seed.EditorPassword
	if pw == "" {
		pw = seed.DefaultEditorPassword
	}
	if sc == scenario.PageVacancies {
		return pages.VacanciesPage(f.url, editorUser, pw)
	}
	p := pages.PersonPage(f.url, seed.ShowcaseID, editorUser, pw)
	p.Text = seed.ShowcaseFirstName + " " + seed.ShowcaseLastName
	return p
}

// validate views every page scenario's page once on every front end, cold
// on the desktop, and checks that it shows what it should once its marker
// is painted: the showcase person with her appointments, a page of
// vacancies. noBrowser, when set, fails them all. It returns the
// validations in the order of scenarios, then front ends.
func (pv *pageViews) validate(ctx context.Context, noBrowser error) []results.Validation {
	pv.con.printf("Validating %d page scenario(s) on %d front end(s) in the browser…\n", len(pv.cfg.Pages.Scenarios), len(pv.cfg.Pages.FrontEnds))
	pv.problems = map[[2]string]error{}
	for _, name := range pv.cfg.Pages.FrontEnds {
		f := pv.front(name)
		for _, sc := range pv.cfg.Pages.Scenarios {
			var err error
			switch {
			case noBrowser != nil:
				err = noBrowser
			case f == nil:
				err = errors.New("the front end was not started")
			default:
				err = pv.check(ctx, sc, f)
			}
			pv.problems[[2]string{sc, name}] = err
		}
	}
	var vs []results.Validation
	for _, sc := range pv.cfg.Pages.Scenarios {
		for _, name := range pv.cfg.Pages.FrontEnds {
			v := results.Validation{Scenario: sc, App: name, OK: true}
			if err := pv.problems[[2]string{sc, name}]; err != nil {
				v.OK, v.Problem = false, err.Error()
			}
			vs = append(vs, v)
		}
	}
	for _, name := range pv.cfg.Pages.FrontEnds {
		var passed []string
		var failed []string
		for _, sc := range pv.cfg.Pages.Scenarios {
			if err := pv.problems[[2]string{sc, name}]; err != nil {
				failed = append(failed, fmt.Sprintf("    FAILED %s: %v\n", sc, err))
			} else {
				passed = append(passed, sc)
			}
		}
		if len(passed) == 0 {
			passed = []string{"none"}
		}
		pv.con.printf("  %s (front end of %s): passed %s\n%s", name, pv.settings().APIs[name], strings.Join(passed, ", "), strings.Join(failed, ""))
	}
	return vs
}

// front is the front end called name, nil when setup did not bring it up.
func (pv *pageViews) front(name string) *frontEnd {
	i := slices.IndexFunc(pv.fronts, func(f *frontEnd) bool { return f.name == name })
	if i < 0 {
		return nil
	}
	return pv.fronts[i]
}

// check views sc's page on f once and says what is wrong with it.
func (pv *pageViews) check(ctx context.Context, sc string, f *frontEnd) error {
	p := pv.page(sc, f)
	v := pv.browser.View(ctx, p, pages.Options{})
	if v.Err != nil {
		return v.Err
	}
	switch sc {
	case scenario.PagePerson:
		if !v.Shows {
			return fmt.Errorf("the person page painted its marker without showing %q", p.Text)
		}
		if v.Count != seed.ShowcaseAppointments {
			return fmt.Errorf("the person page painted its marker showing %d appointments (%s), want %d", v.Count, p.Count, seed.ShowcaseAppointments)
		}
	case scenario.PageVacancies:
		want := int64(db.DefaultLimit)
		if pv.vacancies > 0 {
			want = min(want, pv.vacancies)
		}
		if int64(v.Count) != want {
			return fmt.Errorf("the vacancy list painted its marker showing %d vacancies (%s), want a page of %d", v.Count, p.Count, want)
		}
	}
	return nil
}

// pageJob is one measured run of the phase.
type pageJob struct {
	profile, scenario, device, cache string
	front                            *frontEnd
	name                             string
}

// jobs lists the phase's runs: profiles, scenarios, devices, caches (cold
// first), front ends.
func (pv *pageViews) jobs() []pageJob {
	var js []pageJob
	for _, prof := range pv.cfg.Profiles {
		for _, sc := range pv.cfg.Pages.Scenarios {
			for _, dev := range pv.cfg.Pages.Devices {
				for _, cache := range []string{results.CacheCold, results.CacheWarm} {
					for _, name := range pv.cfg.Pages.FrontEnds {
						js = append(js, pageJob{prof, sc, dev, cache, pv.front(name), name})
					}
				}
			}
		}
	}
	return js
}

// measureAll measures every run of jobs, one at a time, cooling down
// between them, and warns of those whose browser was saturated.
func (pv *pageViews) measureAll(ctx context.Context) []results.PageResult {
	js := pv.jobs()
	perRun := pv.cfg.Warmup + pv.cfg.Duration
	pv.con.printf("Viewing pages: %d run(s) of %s each in up to %d browser context(s), about %s in all.\n",
		len(js), perRun, pv.cfg.Pages.Contexts, round(remaining(len(js), perRun, pv.cfg.Cooldown)))
	var out []results.PageResult
	var saturated []string
	for i, j := range js {
		res := pv.blank(j)
		switch err := pv.problems[[2]string{j.scenario, j.name}]; {
		case err != nil:
			res.Verdict, res.Reason = results.VerdictFailed, "validation failed: "+err.Error()
		case ctx.Err() != nil:
			res.Verdict, res.Reason = results.VerdictSkipped, "interrupted before this run"
		default:
			if i > 0 {
				pause(ctx, pv.cfg.Cooldown)
			}
			res = pv.measure(ctx, j)
			pv.con.printf("[%d/%d] %-6s %-14s %-7s %-4s %s %s\n", i+1, len(js), j.profile, j.scenario, j.device, j.cache, pv.con.app(j.name), pageLine(res))
		}
		if res.Browser.Saturated {
			saturated = append(saturated, fmt.Sprintf("%s %s %s %s %s", j.profile, j.scenario, j.device, j.cache, j.name))
		}
		out = append(out, res)
	}
	if len(saturated) > 0 {
		pv.con.printf("Warning: the browser was saturated in %s: those figures measure the browser, not the app.\n", plural(len(saturated), "page run"))
		pv.notes.note(fmt.Sprintf("The browser was saturated (its CPU at %.0f%% or more of its side's CPUs, or views due while every browser context was busy) in %s: their times measure the browser, not the app. Lower the view rate (-rate page-person=…), or give the runner's side more CPUs (-cpus).",
			100*results.BrowserSaturation, strings.Join(saturated, "; ")))
	}
	return out
}

// blank is j's result before it is measured.
func (pv *pageViews) blank(j pageJob) results.PageResult {
	return results.PageResult{Profile: j.profile, Scenario: j.scenario, FrontEnd: j.name, API: pv.settings().APIs[j.name],
		Device: j.device, Cache: j.cache, TargetRate: pv.cfg.Pages.Rates[j.profile][j.scenario], Errors: []string{}}
}

// deviceProfile is the emulated device called name.
func deviceProfile(name string) pages.Profile {
	if name == config.DeviceMobile {
		return pages.Mobile
	}
	return pages.Desktop
}

// spaTokenKey is the sessionStorage key apps/web's session.js keeps the
// API's token under.
const spaTokenKey = "crudbench.token"

// session signs in to f's API as the editor and returns the session f's
// pages start with: the site's cookie, or the token a single-page app
// keeps in sessionStorage. Validation signs in through each front end's
// form; a measured view starts signed in, as a person's next page does,
// so that its server cost is the page's and not a password check's.
func (pv *pageViews) session(ctx context.Context, f *frontEnd) (*pages.Session, error) {
	s, err := pv.login(ctx, f.api)
	if err != nil {
		return nil, fmt.Errorf("sign-in to %s: %w", f.api, err)
	}
	if c := s.Header.Get("Cookie"); c != "" {
		cookies := map[string]string{}
		for part := range strings.SplitSeq(c, ";") {
			if name, value, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
				cookies[name] = value
			}
		}
		return &pages.Session{Cookies: cookies}, nil
	}
	token, ok := strings.CutPrefix(s.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil, fmt.Errorf("the sign-in to %s gave neither a cookie nor a bearer token", f.api)
	}
	return &pages.Session{Storage: map[string]string{spaTokenKey: token}}, nil
}

// measure runs j: its browser contexts opened (a warm run's each warmed
// by one view of the page, so that its views are a returning visitor's), a
// warm-up of views, discarded, then the measured window of views at j's
// rate while the servers and the browser are sampled. The contexts' own
// warm-up loads are made before the sampler starts, so a warm view's
// server CPU is its own, measured as a cold view's is.
func (pv *pageViews) measure(ctx context.Context, j pageJob) results.PageResult {
	res := pv.blank(j)
	p := pv.page(j.scenario, j.front)
	session, err := pv.session(ctx, j.front)
	if err != nil {
		res.Verdict, res.Reason = results.VerdictFailed, err.Error()
		return res
	}
	p.Session = session
	o := pages.Options{Warm: j.cache == results.CacheWarm, Profile: deviceProfile(j.device), Timeout: pv.cfg.Timeout}
	cs, err := pv.browser.Open(ctx, p, o, pv.cfg.Pages.Contexts)
	if err != nil {
		res.Verdict, res.Reason = results.VerdictFailed, err.Error()
		if ctx.Err() != nil {
			res.Verdict, res.Reason = results.VerdictSkipped, "interrupted before this run"
		}
		return res
	}
	defer cs.Close()
	if pv.cfg.Warmup > 0 {
		cs.Run(ctx, res.TargetRate, pv.cfg.Warmup)
	}
	targets := []sampler.Target{{Name: "browser", PID: pv.browser.PID(), Tree: true}}
	if j.front.apiPID > 0 {
		targets = append(targets, sampler.Target{Name: "api", PID: j.front.apiPID, Tree: j.front.apiTree})
	}
	if j.front.staticPID > 0 {
		targets = append(targets, sampler.Target{Name: "static", PID: j.front.staticPID})
	}
	if pv.dbPID > 0 {
		targets = append(targets, sampler.Target{Name: "postgres", PID: pv.dbPID, Tree: true})
	}
	smp := sampler.New(pv.cfg.SampleInterval, targets...)
	smp.Start()
	from := time.Now()
	views := cs.Run(ctx, res.TargetRate, pv.cfg.Duration)
	to := time.Now()
	series := smp.Stop()
	if ctx.Err() != nil {
		res.Verdict, res.Reason = results.VerdictSkipped, "interrupted during the run: the partial window is not comparable"
		return res
	}
	record(&res, views)
	started := res.Views - res.Busy
	perView := func(name string) (float64, bool) {
		ser, ok := series[name]
		if !ok || started == 0 {
			return 0, false
		}
		st := ser.Window(from, to)
		if st.Missing {
			return 0, false
		}
		return st.CPUSeconds * 1000 / float64(started), true
	}
	res.Server.APIMsPerView, res.Server.APIAvailable = perView("api")
	res.Server.StaticMsPerView, res.Server.StaticAvailable = perView("static")
	res.Server.PostgresMsPerView, res.Server.PostgresAvailable = perView("postgres")
	res.Browser.Cores = browserCores(pv.cfg)
	if st := series["browser"].Window(from, to); !st.Missing {
		res.Browser.Available, res.Browser.CPUMean = true, st.CPUMean
		if started > 0 {
			res.Browser.MsPerView = st.CPUSeconds * 1000 / float64(started)
		}
	}
	res.Browser.Saturated = res.Busy > 0 || (res.Browser.Available && res.Browser.CPUMean >= results.BrowserSaturation*float64(res.Browser.Cores))
	return res
}

// browserCores is how many CPUs the browser's side has: the runner's
// side of -cpus, or the machine's.
func browserCores(cfg config.Config) int {
	if n := len(cfg.CPUs.Rest); n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// maxPageErrors bounds the distinct reasons a page result lists.
const maxPageErrors = 5

// record adds views up into res and gives it its verdict.
func record(res *results.PageResult, views []pages.View) {
	s := pages.Summarize(views)
	res.Views, res.Failed = s.Views, s.Failed
	for _, v := range views {
		switch {
		case v.Err == nil:
		case errors.Is(v.Err, pages.ErrBusy):
			res.Busy++
			fallthrough
		default:
			if msg := v.Err.Error(); !slices.Contains(res.Errors, msg) && len(res.Errors) < maxPageErrors {
				res.Errors = append(res.Errors, msg)
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	res.DataVisibleP50, res.DataVisibleP95 = ms(s.DataVisibleP50), ms(s.DataVisibleP95)
	res.LCPP50, res.LCPP95 = ms(s.LCPP50), ms(s.LCPP95)
	res.Bytes, res.JSBytes, res.Requests = s.Bytes, s.JSBytes, s.Requests
	res.ScriptMs, res.TaskMs = ms(s.Script), ms(s.Task)
	switch {
	case res.Views == 0:
		res.Verdict, res.Reason = results.VerdictFailed, "no view was due in the window: raise the rate or the duration"
	case res.Painted() == 0:
		res.Verdict, res.Reason = results.VerdictFailed, "no view painted its marker"
	case res.Failed > 0:
		res.Verdict, res.Reason = results.VerdictSaturated, fmt.Sprintf("%d of %d views failed", res.Failed, res.Views)
	default:
		res.Verdict = results.VerdictOK
	}
}

// pageLine is the console line of a finished page run.
func pageLine(r results.PageResult) string {
	line := fmt.Sprintf("%-9s views %d/%d  data visible p50 %6.0f ms  p95 %6.0f ms  server %5.1f ms/view  browser %.2f cores",
		r.Verdict, r.Painted(), r.Views, r.DataVisibleP50, r.DataVisibleP95, r.Server.TotalMsPerView(), r.Browser.CPUMean)
	if r.Reason != "" {
		line += "  (" + r.Reason + ")"
	}
	return line
}
