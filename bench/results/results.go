// Package results defines what a benchmark run produces, shared by the
// runner that fills it, bench merge that joins shards of it and the report
// writers that read it: the versioned schema of results.json and its
// reading and writing, the layout of the results folder around it, and the
// rules every one of them must apply alike — the verdict and its words
// (verdict.go) and how repeats fold into one result (fold.go).
package results

import "time"

// SchemaVersion is bumped whenever a field changes meaning or disappears.
// Version 2 added the SLO (verdict slow, Settings.SLOP99), capacity
// searches, CPU profiles, per-second timelines and stack facts; a version 1
// file is still read: it simply has none of them. Fields added since
// without changing any other's meaning keep the version (a capacity's
// repeated Searches: its own fields are still one search's, the median's,
// so a reader that knows nothing of Searches reads a real search).
const SchemaVersion = 2

// OldestReadable is the oldest schema version the report still reads.
const OldestReadable = 1

// BytesPerMB is the MB of every *MB field (2^20 bytes).
const BytesPerMB = 1 << 20

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
	// Pages holds one entry per (profile, page scenario, device, cache,
	// front end) when page scenarios ran.
	Pages []PageResult `json:"pages,omitempty"`
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
	// Broker is the product and version the amqp apps' broker gave when
	// the runner connected ("RabbitMQ 3.10.8"); empty when the run
	// measured no amqp app.
	Broker    string `json:"broker,omitempty"`
	GitCommit string `json:"gitCommit"`
	// Dataset sizes (rows per table) as found in the database.
	Dataset map[string]int64 `json:"dataset"`
	// Mode is "embedded" (throwaway cluster and apps started by the runner),
	// "database" (DATABASE_URL given, apps started by the runner) or
	// "attach" (apps already running, reached by URL).
	Mode string `json:"mode"`
}

// Settings are the knobs the run used.
type Settings struct {
	Profiles  []string `json:"profiles"`
	Scenarios []string `json:"scenarios"`
	Apps      []string `json:"apps"`
	Warmup    Duration `json:"warmup"`
	Duration  Duration `json:"duration"`
	Cooldown  Duration `json:"cooldown"`
	// Prime is the priming pass before an app's first measured run of a
	// scenario; zero when none ran (and in files written before it).
	Prime          Duration `json:"prime,omitempty"`
	Timeout        Duration `json:"timeout"`
	MaxConnections int      `json:"maxConnections"`
	// GRPCConns is the HTTP/2 connections per grpc app; 0 when the run
	// measured none.
	GRPCConns int `json:"grpcConns,omitempty"`
	// AMQPConns is the AMQP connections per amqp app; 0 when the run
	// measured none.
	AMQPConns      int                           `json:"amqpConns,omitempty"`
	Repeat         int                           `json:"repeat"`
	SampleInterval Duration                      `json:"sampleInterval"`
	DBMaxConns     int                           `json:"dbMaxConns"`
	Rates          map[string]map[string]float64 `json:"rates"` // profile -> scenario -> req/s; none for a closed loop
	// Model is how the load was sent: ModelOpen or ModelClosed; empty in
	// files written before there was a choice, whose load was open.
	Model string `json:"model,omitempty"`
	// Clients is how many clients the closed loop ran; 0 in the open
	// model.
	Clients int `json:"clients,omitempty"`
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
	// CPUs says which CPUs each side of the run had; nil in files written
	// before the runner read them.
	CPUs *CPUs `json:"cpus,omitempty"`
	// Pages is how the page scenarios ran; nil when none did.
	Pages *PageSettings `json:"pages,omitempty"`
}

// Load models: how a run's requests were sent.
const (
	// ModelOpen sends at a constant rate, each request on schedule
	// whatever the server does (-model open, the default).
	ModelOpen = "open"
	// ModelClosed runs a fixed number of clients, each sending its next
	// request when its last was answered (-model closed -clients N).
	ModelClosed = "closed"
)

// LoadModel is the model the run's load was sent in: s.Model, or
// ModelOpen for a file written before there was a choice.
func (s Settings) LoadModel() string {
	if s.Model == "" {
		return ModelOpen
	}
	return s.Model
}

// CPUs says which CPUs each side of a run had: as the processes' own
// Cpus_allowed_list read them after start-up, not as -cpus asked, in the
// kernel's list format ("0-1,3").
type CPUs struct {
	// Isolated is true when the apps the runner started had CPUs of
	// their own, apart from PostgreSQL's and the runner's (-cpus); Auto
	// when the runner split its CPUs itself (-cpus auto).
	Isolated bool `json:"isolated"`
	Auto     bool `json:"auto,omitempty"`
	// Runner is the CPUs of the runner and its load generator.
	Runner string `json:"runner"`
	// Postgres is the CPUs of PostgreSQL's postmaster, which its
	// backends inherit; empty when its process is not visible.
	Postgres string `json:"postgres,omitempty"`
	// Broker is the CPUs of the amqp apps' broker, the Erlang VM the
	// runner started, which its helpers inherit; empty when it started
	// none.
	Broker string `json:"broker,omitempty"`
	// Apps maps each measured app to the CPUs of its process; an app
	// whose process is not visible is missing.
	Apps map[string]string `json:"apps,omitempty"`
	// AppCores is how many CPUs an app had to itself when Isolated: the
	// capacity search judges the app's CPU against them, and a capacity
	// per core divides by them.
	AppCores int `json:"appCores,omitempty"`
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
	// Kind is the contract it meets: rest, graphql, site, grpc, trpc or amqp.
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
