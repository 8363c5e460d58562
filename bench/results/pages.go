package results

// PageSettings are how the page scenarios ran: Settings.Pages, nil when
// the run viewed no page.
type PageSettings struct {
	// Scenarios are the page scenarios, FrontEnds the front ends they
	// viewed, in report order.
	Scenarios []string `json:"scenarios"`
	FrontEnds []string `json:"frontEnds"`
	// APIs maps a front end to the API app whose answers its pages show:
	// the row it fronts, or itself for a site that renders its own.
	APIs map[string]string `json:"apis"`
	// Rates maps profile → page scenario → views per second.
	Rates map[string]map[string]float64 `json:"rates"`
	// Devices are the devices views were made on ("desktop", "mobile"),
	// Contexts the most browser contexts open at once.
	Devices  []string `json:"devices"`
	Contexts int      `json:"contexts"`
	// Browser is the Chromium that made the views ("Chrome/120.0…"),
	// BrowserCPUs the CPUs it ran on, as its process's
	// Cpus_allowed_list read them (the runner's side of -cpus).
	Browser     string `json:"browser,omitempty"`
	BrowserCPUs string `json:"browserCPUs,omitempty"`
}

// Page caches: how a view found the browser's cache.
const (
	// CacheCold views with the cache off: everything over the wire.
	CacheCold = "cold"
	// CacheWarm views in a tab of its own in one of the run's browser
	// contexts, each of which viewed the page once, unmeasured, before
	// the run: a returning visitor, whose bundle comes from the cache.
	CacheWarm = "warm"
)

// PageResult is one (profile, page scenario, device, cache, front end):
// its views in the measured window, as the browser reported them, and
// what they cost the servers and the browser.
type PageResult struct {
	Profile  string `json:"profile"`
	Scenario string `json:"scenario"`
	FrontEnd string `json:"frontEnd"`
	// API is the app whose answers the page shows (PageSettings.APIs).
	API    string `json:"api"`
	Device string `json:"device"`
	Cache  string `json:"cache"`
	// TargetRate is the views per second due; Views counts the views due
	// in the window, Failed those that failed (Busy of them because every
	// browser context was busy when they were due: never started).
	TargetRate float64 `json:"targetRate"`
	Views      int     `json:"views"`
	Failed     int     `json:"failed"`
	Busy       int     `json:"busy"`
	// Errors are the first distinct reasons views failed.
	Errors []string `json:"errors"`
	// The figures below are over the views that painted their marker, in
	// milliseconds and bytes: time to the data being visible (navigation
	// start to the marker's paint) and LCP as percentiles, the rest per
	// view. All zero when no view painted it.
	DataVisibleP50 float64 `json:"dataVisibleP50Ms"`
	DataVisibleP95 float64 `json:"dataVisibleP95Ms"`
	LCPP50         float64 `json:"lcpP50Ms"`
	LCPP95         float64 `json:"lcpP95Ms"`
	Bytes          float64 `json:"bytes"`
	JSBytes        float64 `json:"jsBytes"`
	Requests       float64 `json:"requests"`
	ScriptMs       float64 `json:"scriptMs"`
	TaskMs         float64 `json:"taskMs"`
	// Server is the servers' CPU per view started in the window; Browser
	// the browser's.
	Server  PageServerCost  `json:"server"`
	Browser PageBrowserCost `json:"browser"`
	// Verdict is VerdictOK when every view painted its marker, VerdictSaturated
	// when some failed, VerdictFailed (with Reason) when validation failed
	// or none painted it, VerdictSkipped when interrupted.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

// Painted is how many views painted their marker.
func (p PageResult) Painted() int { return p.Views - p.Failed }

// PageServerCost is the CPU the servers spent per page view started, in
// CPU-milliseconds: the API app's process, the static server's (a
// front end of its own; absent for a site, which serves its own files)
// and PostgreSQL's. A part is absent (Available false) when its process
// was not read.
type PageServerCost struct {
	APIMsPerView      float64 `json:"apiMsPerView"`
	APIAvailable      bool    `json:"apiAvailable"`
	StaticMsPerView   float64 `json:"staticMsPerView"`
	StaticAvailable   bool    `json:"staticAvailable"`
	PostgresMsPerView float64 `json:"postgresMsPerView"`
	PostgresAvailable bool    `json:"postgresAvailable"`
}

// TotalMsPerView is the parts added up.
func (c PageServerCost) TotalMsPerView() float64 {
	return c.APIMsPerView + c.StaticMsPerView + c.PostgresMsPerView
}

// PageBrowserCost is the browser's CPU over the window: its process tree
// (the browser, its renderers and helpers), load-generator CPU on the
// runner's side of -cpus.
type PageBrowserCost struct {
	Available bool `json:"available"`
	// CPUMean is in cores, MsPerView CPU-milliseconds per view started.
	CPUMean   float64 `json:"cpuMean"`
	MsPerView float64 `json:"msPerView"`
	// Cores is how many CPUs the browser's side had; Saturated says its
	// CPU reached BrowserSaturation of them, or views found every
	// context busy: the figures then measure the browser, not the app.
	Cores     int  `json:"cores"`
	Saturated bool `json:"saturated"`
}

// BrowserSaturation is the share of its side's CPUs at which the browser
// counts as saturated.
const BrowserSaturation = 0.85
