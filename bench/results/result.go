package results

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
	// Broker is what the RabbitMQ between the load and an amqp app spent
	// on the window; nil for the other kinds.
	Broker *BrokerCost `json:"brokerCost,omitempty"`
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
	Replicas int `json:"replicas,omitempty"`
	// Tree says the figures, read from /proc, are the sum over a process
	// and its descendants (an app's primary and the workers it forks):
	// the CPU time of every one, that of the children they reaped
	// included, and memory as Pss, which counts the pages they share
	// once. False for one process.
	Tree            bool    `json:"tree,omitempty"`
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
	// Pauses is what the app's runtime paused over the window, from its
	// metrics; nil when they were not scraped or have no such figures.
	Pauses *Pauses `json:"pauses,omitempty"`

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

// BrokerCost is what the broker an amqp app's requests and replies go
// through spent on a measured window, measured as PostgreSQL is: the
// Erlang VM (beam.smp) and its children as one tree.
type BrokerCost struct {
	// CPUAvailable is false when the broker's process was not visible
	// (one at AMQP_URL, or an attached app's).
	CPUAvailable    bool    `json:"cpuAvailable"`
	PID             int     `json:"pid,omitempty"`
	CPUMean         float64 `json:"cpuMean"`
	CPUSeconds      float64 `json:"cpuSeconds,omitempty"`
	CPUMsPerRequest float64 `json:"cpuMsPerRequest"`
	RSSMeanMB       float64 `json:"rssMeanMB"` // Pss sum
	RSSMaxMB        float64 `json:"rssMaxMB"`
	// QueueAvailable is false when the request queue's depth could not
	// be read twice in the window. QueueDepthMean and QueueDepthMax are
	// the requests waiting in the queue (ready, not yet delivered to the
	// app, which holds up to its prefetch unacknowledged) over the
	// window's readings.
	QueueAvailable bool    `json:"queueAvailable"`
	QueueDepthMean float64 `json:"queueDepthMean"`
	QueueDepthMax  int     `json:"queueDepthMax"`
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
