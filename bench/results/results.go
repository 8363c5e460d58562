// Package results defines what a benchmark run produces: the versioned
// schema of results.json, shared by the runner that fills it and the report
// writers that read it.
package results

import "time"

// SchemaVersion is bumped whenever a field changes meaning or disappears.
const SchemaVersion = 1

// Verdicts of a measured run.
const (
	VerdictOK        = "ok"
	VerdictSaturated = "saturated" // achieved throughput < 95% of target, or success < 99%
	VerdictFailed    = "failed"    // validation failed: not measured
	VerdictSkipped   = "skipped"   // not run (e.g. interrupted)
)

// BytesPerMB is the MB of every *MB field (2^20 bytes).
const BytesPerMB = 1 << 20

// Thresholds of the verdict, shared by the runner that judges and the
// report that explains: under either, a measured run is saturated.
const (
	MinThroughputShare = 0.95 // successful throughput, as a share of the target rate
	MinSuccessRatio    = 0.99
)

// Run is the whole of one invocation of the bench: results.json.
type Run struct {
	SchemaVersion int         `json:"schemaVersion"`
	StartedAt     time.Time   `json:"startedAt"`
	FinishedAt    time.Time   `json:"finishedAt"`
	Environment   Environment `json:"environment"`
	Settings      Settings    `json:"settings"`
	// Validations holds one entry per (scenario, app) checked before load.
	Validations []Validation `json:"validations"`
	// Results holds one entry per (profile, scenario, app), repeats folded
	// into Repeats and the medians shown in the top-level fields.
	Results []Result `json:"results"`
	// Runner is the load generator's own cost over the whole run.
	Runner ProcessCost `json:"runner"`
	// SamplerOverhead is the sampler's own CPU as a fraction of one core.
	SamplerOverhead float64 `json:"samplerOverhead"`
	// Notes are deliberate differences and caveats, stated in the report.
	Notes []string `json:"notes"`
}

// Environment describes the machine and software a run measured.
type Environment struct {
	CPUModel        string `json:"cpuModel"`
	CPUCount        int    `json:"cpuCount"`
	Kernel          string `json:"kernel"`
	GoVersion       string `json:"goVersion"`
	PostgresVersion string `json:"postgresVersion"`
	GitCommit       string `json:"gitCommit"`
	// Dataset sizes (rows per table) as found in the database.
	Dataset map[string]int64 `json:"dataset"`
	// Mode is "embedded" (throwaway cluster and apps started by the runner),
	// "database" (DATABASE_URL given, apps started by the runner) or
	// "attach" (apps already running, reached by URL).
	Mode string `json:"mode"`
}

// Settings are the knobs the run used.
type Settings struct {
	Profiles       []string                      `json:"profiles"`
	Scenarios      []string                      `json:"scenarios"`
	Apps           []string                      `json:"apps"`
	Warmup         Duration                      `json:"warmup"`
	Duration       Duration                      `json:"duration"`
	Cooldown       Duration                      `json:"cooldown"`
	Timeout        Duration                      `json:"timeout"`
	MaxConnections int                           `json:"maxConnections"`
	Repeat         int                           `json:"repeat"`
	SampleInterval Duration                      `json:"sampleInterval"`
	DBMaxConns     int                           `json:"dbMaxConns"`
	Rates          map[string]map[string]float64 `json:"rates"` // profile -> scenario -> req/s
}

// Validation is the outcome of checking one scenario on one app before load.
type Validation struct {
	Scenario string `json:"scenario"`
	App      string `json:"app"`
	OK       bool   `json:"ok"`
	// Problem says what was wrong when OK is false.
	Problem string `json:"problem,omitempty"`
}

// Result is one (profile, scenario, app) measurement.
type Result struct {
	Profile  string `json:"profile"`
	Scenario string `json:"scenario"`
	App      string `json:"app"`
	Verdict  string `json:"verdict"`
	// Reason explains a verdict other than ok.
	Reason string `json:"reason,omitempty"`

	TargetRate   float64        `json:"targetRate"`   // req/s asked for
	AchievedRate float64        `json:"achievedRate"` // req/s actually sent in the measured window
	Throughput   float64        `json:"throughput"`   // successful responses per second
	Requests     uint64         `json:"requests"`
	SuccessRatio float64        `json:"successRatio"`
	StatusCodes  map[string]int `json:"statusCodes"`
	Errors       []string       `json:"errors"` // first distinct errors

	Latency  Latency `json:"latency"`
	BytesIn  float64 `json:"bytesInMean"` // response bytes per request
	BytesOut float64 `json:"bytesOutMean"`

	AppCost ProcessCost `json:"appCost"`
	DB      DBCost      `json:"dbCost"`

	// Repeats holds each repeat's key numbers when -repeat > 1; the fields
	// above are then medians and Spread gives max-min of each.
	Repeats []RepeatSummary `json:"repeats,omitempty"`
	Spread  *RepeatSummary  `json:"spread,omitempty"`

	// Files produced for this result, relative to the results folder.
	RawFile     string `json:"rawFile"`     // vegeta's binary encoding (vegeta report / plot read it)
	SamplesFile string `json:"samplesFile"` // CSV of the sampler
}

// Measured reports whether r carries numbers: ok and saturated runs do,
// failed and skipped runs do not.
func (r *Result) Measured() bool {
	return r.Verdict == VerdictOK || r.Verdict == VerdictSaturated
}

// Latency percentiles in milliseconds.
type Latency struct {
	Mean float64 `json:"meanMs"`
	P50  float64 `json:"p50Ms"`
	P90  float64 `json:"p90Ms"`
	P95  float64 `json:"p95Ms"`
	P99  float64 `json:"p99Ms"`
	Max  float64 `json:"maxMs"`
}

// ProcessCost is CPU and memory of a process (or process tree) over a
// measured window. Available is false when the process could not be seen
// (attach mode without its pid): the numbers are then zero and meaningless.
type ProcessCost struct {
	Available       bool    `json:"available"`
	PID             int     `json:"pid,omitempty"`
	CPUMean         float64 `json:"cpuMean"` // fraction of one core (1.0 = one core)
	CPUMax          float64 `json:"cpuMax"`
	CPUMsPerRequest float64 `json:"cpuMsPerRequest"` // per successful request
	RSSMeanMB       float64 `json:"rssMeanMB"`
	RSSMaxMB        float64 `json:"rssMaxMB"`
	RSSStartMB      float64 `json:"rssStartMB"`
	RSSEndMB        float64 `json:"rssEndMB"`

	// CPUResolutionMsPerRequest is the resolution of CPUMsPerRequest: how
	// far the CPU readings over the window may be off, per successful
	// request. A CPUMsPerRequest under it is not told from zero and is
	// reported as below resolution. Zero where not known.
	CPUResolutionMsPerRequest float64 `json:"cpuResolutionMsPerRequest,omitempty"`
}

// DBCost is what PostgreSQL spent on a measured window.
type DBCost struct {
	Available bool `json:"available"`
	// StatementsPerRequest from pg_stat_statements call deltas / successful requests.
	StatementsPerRequest float64 `json:"statementsPerRequest"`
	// CPU of the server's processes (postmaster + backends) when visible.
	CPUAvailable    bool    `json:"cpuAvailable"`
	CPUMean         float64 `json:"cpuMean"`
	CPUMsPerRequest float64 `json:"cpuMsPerRequest"`
	RSSMeanMB       float64 `json:"rssMeanMB"` // Pss sum
}

// RepeatSummary is the key numbers of one repeat (or their spread).
type RepeatSummary struct {
	AchievedRate float64 `json:"achievedRate"`
	Throughput   float64 `json:"throughput"`
	SuccessRatio float64 `json:"successRatio"`
	P50          float64 `json:"p50Ms"`
	P99          float64 `json:"p99Ms"`
	CPUMean      float64 `json:"cpuMean"`
	RSSMaxMB     float64 `json:"rssMaxMB"`
}

// Duration is a time.Duration written as a Go duration string ("15s").
type Duration time.Duration

// MarshalText writes the duration as "15s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}
