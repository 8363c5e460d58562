// Package results defines what a benchmark run produces: the versioned
// schema of results.json, shared by the runner that fills it and the report
// writers that read it.
package results

import "time"

// SchemaVersion is bumped whenever a field changes meaning or disappears.
// Version 2 added the SLO (verdict slow, Settings.SLOP99), capacity
// searches, CPU profiles, per-second timelines and stack facts; a version 1
// file is still read: it simply has none of them.
const SchemaVersion = 2

// OldestReadable is the oldest schema version the report still reads.
const OldestReadable = 1

// Verdicts of a measured run.
const (
	VerdictOK        = "ok"        // held the rate, p99 within the SLO
	VerdictSlow      = "slow"      // held the rate, p99 over the SLO
	VerdictSaturated = "saturated" // achieved throughput < 95% of target, or success < 99%
	VerdictFailed    = "failed"    // validation failed: not measured
	VerdictSkipped   = "skipped"   // not run (e.g. interrupted)
)

// DefaultSLOP99 is the p99 latency a run must stay within to be ok, and a
// capacity probe to count as met, unless -slo-p99 says otherwise.
const DefaultSLOP99 = 50 * time.Millisecond

// The capacity search's service level besides the p99: stricter than the
// fixed profiles' verdict, because a capacity is a rate to size servers
// with, not a description of what happened.
const (
	CapacityMinSuccessRatio    = 0.999
	CapacityMinThroughputShare = 0.99
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
	// Capacities holds one entry per (scenario, app) when -capacity ran.
	Capacities []Capacity `json:"capacities,omitempty"`
	// Stacks holds the stack facts of each app, in the order of
	// Settings.Apps.
	Stacks []StackFacts `json:"stacks,omitempty"`
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
	// SLOP99 is the p99 latency of the service level objective; zero in a
	// version 1 file, which judged no latency.
	SLOP99 Duration `json:"sloP99,omitempty"`
	// Capacity is how the capacity search ran; nil when it did not.
	Capacity *CapacitySettings `json:"capacity,omitempty"`
	// ProfileCPU is true when a CPU profile was taken of every measured
	// window (-profile-cpu).
	ProfileCPU bool `json:"profileCPU,omitempty"`
	// AppInfo describes each app of Apps, in its order: the kind it
	// implements and how it differs from the kind's default. Files written
	// before apps had kinds have none.
	AppInfo []App `json:"appInfo,omitempty"`
	// Shard is set when this runner sent one part of a load split across
	// several runners (-shard i/N); nil for a runner that sent it all.
	Shard *Shard `json:"shard,omitempty"`
	// Shards is how many shards `bench merge` made this run from; zero for
	// a run of one runner.
	Shards int `json:"shards,omitempty"`
}

// Shard is one runner's part of a shared schedule. Every run's requests
// are numbered by one schedule (the rate, warm-up and duration of the
// run); the shard sent those whose number n has n mod Count == Index, at
// the time the schedule gives them, counted from the run's slot, which
// begins at StartAt plus the slots of the runs before it.
type Shard struct {
	Index   int       `json:"index"`
	Count   int       `json:"count"`
	StartAt time.Time `json:"startAt"`
	// Gap is the time in every slot, after warm-up, duration and
	// cool-down, for the work between attacks (-shard-gap): shards agree
	// on the slots only when they agree on it.
	Gap Duration `json:"gap"`
}

// App is what a run knows of one app besides its measurements.
type App struct {
	Name string `json:"name"`
	// Kind is the contract it meets: rest, graphql or site.
	Kind string `json:"kind"`
	// Difference says in one line how a built-in variant differs from its
	// kind's default app; empty for a default and for an attached app that
	// is not built in.
	Difference string `json:"difference,omitempty"`
}

// CapacitySettings are the knobs of the capacity search.
type CapacitySettings struct {
	// Start is the first rate of the ramp, Growth the factor between ramp
	// steps, Max the cap (req/s).
	Start  float64 `json:"start"`
	Growth float64 `json:"growth"`
	Max    float64 `json:"max"`
	// Precision is the relative width the bisection stops at (0.05: the
	// lowest failing rate is within 5% above the capacity).
	Precision float64 `json:"precision"`
	// ProbeWarmup and ProbeDuration time each probe; the confirmation run
	// uses Settings.Warmup and Settings.Duration.
	ProbeWarmup   Duration `json:"probeWarmup"`
	ProbeDuration Duration `json:"probeDuration"`
	// MinSuccessRatio and MinThroughputShare complete the SLO.
	MinSuccessRatio    float64 `json:"minSuccessRatio"`
	MinThroughputShare float64 `json:"minThroughputShare"`
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

	TargetRate   float64        `json:"targetRate"`   // req/s asked for (of a shard: its share, the rate / Settings.Shard.Count)
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
	// AttackSuccesses counts the successful requests of the whole attack,
	// warm-up included: what DB.Statements is divided by, kept so that a
	// merge of shards can add them before dividing.
	AttackSuccesses uint64 `json:"attackSuccesses,omitempty"`

	// Timeline is the measured window second by second, so a reader sees
	// a queue build up.
	Timeline []Second `json:"timeline,omitempty"`
	// CPUProfile is where the app's CPU went in the measured window, when
	// -profile-cpu took one.
	CPUProfile *CPUProfile `json:"cpuProfile,omitempty"`

	// Repeats holds each repeat's key numbers when -repeat > 1; the fields
	// above are then medians and Spread gives max-min of each.
	Repeats []RepeatSummary `json:"repeats,omitempty"`
	Spread  *RepeatSummary  `json:"spread,omitempty"`

	// Files produced for this result, relative to the results folder.
	RawFile     string `json:"rawFile"`     // vegeta's binary encoding (vegeta report / plot read it)
	SamplesFile string `json:"samplesFile"` // CSV of the sampler
}

// Measured reports whether r carries numbers: ok, slow and saturated runs
// do, failed and skipped runs do not.
func (r *Result) Measured() bool {
	return r.Verdict == VerdictOK || r.Verdict == VerdictSlow || r.Verdict == VerdictSaturated
}

// HeldRate reports whether r kept up with its rate (ok or slow): only then
// are its latencies latencies rather than the length of a queue.
func (r *Result) HeldRate() bool {
	return r.Verdict == VerdictOK || r.Verdict == VerdictSlow
}

// Second is one second of a measured window: the requests scheduled in it
// and their latencies (by when they were due, so a queue shows in the
// seconds it built up in).
type Second struct {
	// At is the second's start, in seconds from the window's start.
	At        float64 `json:"at"`
	Requests  int     `json:"requests"`
	Successes int     `json:"successes"`
	P50       float64 `json:"p50Ms"`
	P99       float64 `json:"p99Ms"`
}

// Layers of a CPU profile, in the order the report stacks them.
const (
	LayerHTTP     = "http"     // net/http server, router, middleware of the standard library and chi
	LayerEncoding = "encoding" // encoding/json, html/template, templ and its compiled components, gqlgen's executor and marshalling, gqlparser
	LayerDriver   = "driver"   // pgx, pgconn, pgproto3, puddle (the pool)
	LayerApp      = "app"      // the app's own code and the shared crudbench packages
	LayerRuntime  = "runtime"  // scheduler, garbage collector and what only the runtime called
	LayerOther    = "other"    // anything else (crypto, logging, other libraries)
)

// Layers lists the layer names in order.
var Layers = []string{LayerHTTP, LayerEncoding, LayerDriver, LayerApp, LayerRuntime, LayerOther}

// CPUProfile summarizes one CPU profile of an app.
type CPUProfile struct {
	// File is the profile (pprof's gzipped protobuf, go tool pprof reads
	// it), relative to the results folder.
	File string `json:"file"`
	// Seconds is the time profiled; CPUSeconds the CPU time its samples add up to.
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpuSeconds"`
	// Layers holds each layer's share of CPUSeconds, in the order of
	// Layers; the shares add up to 1 (all 0 when no sample was taken).
	Layers []LayerShare `json:"layers"`
	// Top is the ten functions with the most CPU of their own.
	Top []FunctionShare `json:"top"`
}

// LayerShare is a layer's share of a profile's CPU (0..1).
type LayerShare struct {
	Layer string  `json:"layer"`
	Share float64 `json:"share"`
}

// FunctionShare is a function's own (flat) and inclusive (cum) share of a
// profile's CPU (0..1).
type FunctionShare struct {
	Name string  `json:"name"`
	Flat float64 `json:"flat"`
	Cum  float64 `json:"cum"`
}

// Capacity statuses.
const (
	CapacityFound   = "found"   // a highest rate within the SLO was bracketed to the precision
	CapacityCapped  = "capped"  // every rate up to the cap met the SLO: the capacity is at least Rate
	CapacityNone    = "none"    // even the first rate of the ramp missed the SLO
	CapacityFailed  = "failed"  // not searched: validation failed, or a probe could not run
	CapacitySkipped = "skipped" // not searched: interrupted
)

// Stop reasons: what kept a capacity from being higher, judged on the
// lowest probe that missed the SLO.
const (
	StopAppCPU        = "app-cpu"        // the app used (nearly) all the CPU it could
	StopPostgresCPU   = "postgres-cpu"   // PostgreSQL did
	StopLoadGenerator = "load-generator" // the runner could not keep its schedule, or used the CPU the others needed
	StopQueueing      = "queueing"       // latency grew with CPU to spare: a pool, lock or connection limit
	StopOtherLoad     = "other-load"     // other processes on the machine used more CPU than any of app, PostgreSQL and runner
	StopCap           = "cap"            // the search reached -capacity-max
	StopPool          = "pool"           // requests waited for a database connection from the app's pool, with CPU to spare
	StopSpike         = "latency-spike"  // the rate was held and most requests were quick, with CPU to spare: a tail nothing measured explains
)

// Capacity is the outcome of the capacity search of one (scenario, app).
type Capacity struct {
	Scenario string `json:"scenario"`
	App      string `json:"app"`
	Status   string `json:"status"`
	// Reason says why a search failed or was skipped.
	Reason string `json:"reason,omitempty"`

	// Rate is the highest rate (req/s) that met the SLO; Upper the lowest
	// that missed it (0 when the cap was reached first).
	Rate  float64 `json:"rate"`
	Upper float64 `json:"upper,omitempty"`

	// StopReason is one of the Stop* constants; StopDetail says it with
	// the numbers it was judged on.
	StopReason string `json:"stopReason,omitempty"`
	StopDetail string `json:"stopDetail,omitempty"`

	// PerCore is Rate divided by the app's mean CPU (cores) in the
	// confirmation run: the figure that transfers to a bigger machine.
	// Zero when the app's CPU was not visible.
	PerCore float64 `json:"perCore,omitempty"`

	// Probes are the short runs of the search, in the order they ran.
	Probes []Probe `json:"probes"`
	// Confirmation is the full-length run at Rate (profile "capacity");
	// Held says whether it met the SLO too.
	Confirmation *Result `json:"confirmation,omitempty"`
	Held         bool    `json:"held"`
}

// Probe is one short run of a capacity search.
type Probe struct {
	Rate float64 `json:"rate"`
	// Try is the probe's number among those of its rate: 1 for the
	// first, 2 and 3 for the tries after a miss (zero in files written
	// before the search tried a rate again).
	Try          int     `json:"try,omitempty"`
	AchievedRate float64 `json:"achievedRate"`
	Throughput   float64 `json:"throughput"`
	SuccessRatio float64 `json:"successRatio"`
	P50          float64 `json:"p50Ms"`
	P99          float64 `json:"p99Ms"`

	// CPU in cores over the probe's measured window: the app, PostgreSQL,
	// the runner itself, and the whole machine (/proc/stat), each only
	// when its Available flag is set.
	AppCPU              float64 `json:"appCPU"`
	AppCPUAvailable     bool    `json:"appCPUAvailable"`
	DBCPU               float64 `json:"dbCPU"`
	DBCPUAvailable      bool    `json:"dbCPUAvailable"`
	RunnerCPU           float64 `json:"runnerCPU"`
	MachineCPU          float64 `json:"machineCPU"`
	MachineCPUAvailable bool    `json:"machineCPUAvailable"`
	// PoolWaitMs is the mean time a request of the probe waited for a
	// connection from the app's pool (from its metrics), when
	// PoolAvailable.
	PoolWaitMs    float64 `json:"poolWaitMs,omitempty"`
	PoolAvailable bool    `json:"poolAvailable,omitempty"`

	// Met says whether the probe met the SLO; Why names what it missed.
	Met bool   `json:"met"`
	Why string `json:"why,omitempty"`
}

// StackFacts are the size and start-up cost of one app, from the source
// tree and the built binary.
type StackFacts struct {
	App string `json:"app"`
	// Own counts the files of the app's own packages (apps/<name>/...);
	// Shared those of the other crudbench packages its binary links (the
	// data layer and the apps' common packages).
	Own    Lines `json:"own"`
	Shared Lines `json:"shared"`
	// DirectModules are the modules outside crudbench whose packages the
	// crudbench packages import; TotalModules every module in the binary
	// (go version -m), crudbench itself excluded.
	DirectModules int   `json:"directModules"`
	TotalModules  int   `json:"totalModules"`
	BinaryBytes   int64 `json:"binaryBytes"`
	// StartMs is the time from starting the process to its first
	// successful /readyz; IdleRSSMB its VmRSS then, before any load.
	StartMs   float64 `json:"startMs"`
	IdleRSSMB float64 `json:"idleRSSMB"`
	// Problems name the facts that could not be measured (attach mode has
	// no binary and no start).
	Problems []string `json:"problems,omitempty"`
}

// Lines counts non-blank lines by kind.
type Lines struct {
	Go        int `json:"go"`        // hand-written Go, tests excluded
	Generated int `json:"generated"` // Go marked "Code generated ... DO NOT EDIT."
	Tests     int `json:"tests"`     // _test.go files
	// Other is schema, templates, SQL and the app's own static files
	// (vendored third-party assets such as htmx excluded).
	Other int `json:"other"`
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

// Sources of a ProcessCost's CPU and memory figures.
const (
	// SourceProc: read from /proc on the runner's machine (the process's
	// CPU clock and VmRSS, 10 samples a second by default).
	SourceProc = "proc"
	// SourceMetrics: scraped from the app's Prometheus metrics
	// (process_cpu_seconds_total, process_resident_memory_bytes), at most
	// once a second, when /proc could not or was told not to be used.
	SourceMetrics = "metrics"
)

// ProcessCost is CPU and memory of a process (or process tree) over a
// measured window. Available is false when the process could not be seen
// (attach mode without its pid): the numbers are then zero and meaningless.
type ProcessCost struct {
	Available bool `json:"available"`
	// Source says where the figures came from: SourceProc or
	// SourceMetrics; empty when not available, and in files written before
	// there was a choice (then it is /proc).
	Source string `json:"source,omitempty"`
	// Replicas is the number of processes the app ran as, behind one
	// load balancer, when more than one: the figures are then the sum of
	// theirs (from their metrics). 0 for one process.
	Replicas        int     `json:"replicas,omitempty"`
	PID             int     `json:"pid,omitempty"`
	CPUMean         float64 `json:"cpuMean"` // fraction of one core (1.0 = one core)
	CPUMax          float64 `json:"cpuMax"`
	CPUMsPerRequest float64 `json:"cpuMsPerRequest"` // per successful request
	// CPUSeconds is the CPU time over the window that CPUMsPerRequest
	// divides, so that shards' requests can be added before dividing.
	CPUSeconds float64 `json:"cpuSeconds,omitempty"`
	RSSMeanMB  float64 `json:"rssMeanMB"`
	RSSMaxMB   float64 `json:"rssMaxMB"`
	RSSStartMB float64 `json:"rssStartMB"`
	RSSEndMB   float64 `json:"rssEndMB"`
	// Pool is the app's database pool over the window, from its metrics;
	// nil when they were not scraped.
	Pool *PoolCost `json:"pool,omitempty"`

	// CPUResolutionMsPerRequest is the resolution of CPUMsPerRequest: how
	// far the CPU readings over the window may be off, per successful
	// request. A CPUMsPerRequest under it is not told from zero and is
	// reported as below resolution. Zero where not known.
	CPUResolutionMsPerRequest float64 `json:"cpuResolutionMsPerRequest,omitempty"`
}

// PoolCost is what an app's pgx pool reported over a measured window
// (pgxpool_acquire_count_total and pgxpool_acquire_duration_seconds_total
// of its metrics: differences between the scrapes around the window,
// scaled to its length, since they come once a second).
type PoolCost struct {
	Acquires           uint64  `json:"acquires"`
	AcquireWaitSeconds float64 `json:"acquireWaitSeconds"`
	// WaitMsPerRequest is AcquireWaitSeconds over the window's requests:
	// how long a request waited for connections, on average. Next to the
	// latency it tells a pool that is too small from an app that is slow.
	WaitMsPerRequest float64 `json:"waitMsPerRequest"`
	// MaxConns is the pool's size.
	MaxConns int `json:"maxConns,omitempty"`
}

// DBCost is what PostgreSQL spent on a measured window.
type DBCost struct {
	Available bool `json:"available"`
	// StatementsPerRequest from pg_stat_statements call deltas / successful requests.
	StatementsPerRequest float64 `json:"statementsPerRequest"`
	// Statements is that call delta and CPUSeconds the server's CPU time
	// over the window, so that shards' requests can be added before
	// dividing. Both are the whole database's: every shard of a sharded
	// run sees all shards' statements and CPU.
	Statements uint64  `json:"statements,omitempty"`
	CPUSeconds float64 `json:"cpuSeconds,omitempty"`
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
	// CPUMsPerRequest is the app's CPU per successful request; zero in
	// files written before repeats carried it.
	CPUMsPerRequest float64 `json:"cpuMsPerRequest,omitempty"`
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
