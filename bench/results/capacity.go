package results

import (
	"cmp"
	"slices"
)

// Capacity statuses.
const (
	CapacityFound   = "found"   // a highest rate within the SLO was bracketed to the precision
	CapacityCapped  = "capped"  // every rate up to the cap met the SLO: the capacity is at least Rate
	CapacityNone    = "none"    // even the first rate of the ramp missed the SLO
	CapacityFailed  = "failed"  // not searched: validation failed, or a probe could not run
	CapacitySkipped = "skipped" // not searched: interrupted
)

// Stop reasons: what kept a capacity from being higher, judged on the
// worst try at the lowest rate that missed the SLO.
const (
	StopAppCPU        = "app-cpu"        // the app used (nearly) all the CPU it could
	StopPostgresCPU   = "postgres-cpu"   // PostgreSQL did
	StopBrokerCPU     = "broker-cpu"     // an amqp app's broker (the RabbitMQ node the runner started) used the most CPU on the runner's side
	StopLoadGenerator = "load-generator" // the runner could not keep its schedule, or used the CPU the others needed
	StopQueueing      = "queueing"       // latency grew with CPU to spare: a pool, lock or connection limit
	StopOtherLoad     = "other-load"     // other processes on the machine used more CPU than any of app, PostgreSQL, broker and runner
	StopCap           = "cap"            // the search reached -capacity-max
	StopPool          = "pool"           // requests waited for a database connection from the app's pool, with CPU to spare
	StopSpike         = "latency-spike"  // the rate was held and most requests were quick, with CPU to spare: a tail nothing measured explains
	StopGCPause       = "gc-pause"       // the garbage collector's pauses made most of the tail, with CPU to spare
	StopEventLoopLag  = "event-loop-lag" // Node's event loop was held for most of the tail, with CPU to spare
)

// Capacity is the outcome of the capacity search of one (scenario, app).
type Capacity struct {
	Scenario string `json:"scenario"`
	App      string `json:"app"`
	Status   string `json:"status"`
	// Reason says why a search failed or was skipped.
	Reason string `json:"reason,omitempty"`

	// Rate is the highest rate (req/s) that met the SLO: in the probes,
	// and then in a full-length confirmation run, stepping down from the
	// probes' rate when a confirmation missed (see capacity.Confirm); the
	// probes' rate when no confirmation held. Upper is the lowest rate a
	// probe missed (0 when the cap was reached first).
	Rate  float64 `json:"rate"`
	Upper float64 `json:"upper,omitempty"`
	// Found is the probes' rate when a confirmation held only below it,
	// zero otherwise (and in files written before confirmations stepped
	// down).
	Found float64 `json:"found,omitempty"`

	// StopReason is one of the Stop* constants; StopDetail says it with
	// the numbers it was judged on.
	StopReason string `json:"stopReason,omitempty"`
	StopDetail string `json:"stopDetail,omitempty"`

	// PerCore is Rate divided by the cores the app had to itself
	// (Settings.CPUs.AppCores) when it was isolated: what a core given to
	// it served, whatever stopped it. Otherwise, with every CPU shared,
	// it is Rate divided by the app's mean CPU (cores) in the
	// confirmation run, zero when that was not visible.
	PerCore float64 `json:"perCore,omitempty"`

	// Probes are the short runs of the search, in the order they ran.
	Probes []Probe `json:"probes"`
	// Confirmation is the full-length run at Rate (profile "capacity");
	// Held says whether it met the SLO too, judged as the probes are
	// (SLO.Judge), not by its verdict.
	Confirmation *Result `json:"confirmation,omitempty"`
	Held         bool    `json:"held"`
	// Missed are the other confirmation runs, all of which missed the SLO,
	// in the order they ran: above Rate when Held, below it when not.
	Missed []Result `json:"missedConfirmations,omitempty"`

	// Search is the search's number among the repeats of its (scenario,
	// app), from 1, and PID the app's process it measured (0 when not
	// known); both zero in files written before searches were repeated.
	Search int `json:"search,omitempty"`
	PID    int `json:"pid,omitempty"`
	// Searches holds every search of the (scenario, app), in the order
	// they ran, when -capacity -repeat ran more than one; the fields above
	// are then those of the one the median falls on (FoldCapacities), a
	// real search whose probes and confirmations they are. Nil for a
	// single search.
	Searches []Capacity `json:"searches,omitempty"`
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
	AppCPU          float64 `json:"appCPU"`
	AppCPUAvailable bool    `json:"appCPUAvailable"`
	// AppCPUResolution is the most AppCPU can fall short by, in cores
	// (a reading's lag, ProcessCost.CPUResolutionMsPerRequest over the
	// window): an AppCPU under it cannot be told from zero, as a few
	// requests' CPU read from metrics in 10 ms ticks often is.
	AppCPUResolution float64 `json:"appCPUResolution,omitempty"`
	DBCPU            float64 `json:"dbCPU"`
	DBCPUAvailable   bool    `json:"dbCPUAvailable"`
	// BrokerCPU is, for an amqp app, its broker's (the node the runner
	// started), in cores, when BrokerCPUAvailable: part of the stack the
	// app is measured on, as PostgreSQL is, not another process's load.
	BrokerCPU           float64 `json:"brokerCPU,omitempty"`
	BrokerCPUAvailable  bool    `json:"brokerCPUAvailable,omitempty"`
	RunnerCPU           float64 `json:"runnerCPU"`
	MachineCPU          float64 `json:"machineCPU"`
	MachineCPUAvailable bool    `json:"machineCPUAvailable"`
	// PoolWaitMs is the mean time a request of the probe waited for a
	// connection from the app's pool (from its metrics), when
	// PoolAvailable.
	PoolWaitMs    float64 `json:"poolWaitMs,omitempty"`
	PoolAvailable bool    `json:"poolAvailable,omitempty"`
	// Pauses is what the app's runtime paused during the probe (from its
	// metrics); nil when they were not read.
	Pauses *Pauses `json:"pauses,omitempty"`

	// OtherCPU is the machine's CPU less that of the app, PostgreSQL (an
	// amqp app's broker too, when seen) and the runner over the same window: other processes' (and interrupts'),
	// when OtherCPUAvailable — every one of those figures seen, and the
	// app's this machine's (not replicas'). Others are the machine's other
	// processes that used the most CPU
	// during the probe (warm-up included), named when the machine less
	// the app, PostgreSQL and the runner came to more than a tenth of a
	// core: what "other processes" were.
	OtherCPU          float64        `json:"otherCPU,omitempty"`
	OtherCPUAvailable bool           `json:"otherCPUAvailable,omitempty"`
	Others            []ProcessShare `json:"others,omitempty"`

	// Met says whether the probe met the SLO; Why names what it missed.
	Met bool   `json:"met"`
	Why string `json:"why,omitempty"`
}

// ProcessShare is one process's CPU over a span, in cores.
type ProcessShare struct {
	PID   int     `json:"pid"`
	Name  string  `json:"name"`
	Cores float64 `json:"cores"`
}

// MachineBound reports whether c is a capacity the machine's other side
// decided rather than the app: a full-length run held it, and the search
// stopped above it because PostgreSQL, an amqp app's broker, the load
// generator or other processes — not the app — used the CPU they had
// (StopPostgresCPU, StopBrokerCPU, StopLoadGenerator, StopOtherLoad). Its rate is then a lower bound of
// the app's capacity: the app might have gone further on a machine whose
// other side had more room, and ranking it against an app whose own core
// was the limit would credit the app with the machine's limit. A rate no
// full-length run held bounds nothing and is not machine-bound.
//
// The median of repeated searches is a lower bound when a search at or
// below it was machine-bound: that search's own capacity may be higher,
// and with it the median. Machine-bound searches above the median cannot
// move it.
func (c *Capacity) MachineBound() bool { return c.BoundReason() != "" }

// BoundReason is the stop reason that makes c machine-bound (see
// MachineBound): its own, or for the median of repeated searches that of
// the highest machine-bound search at or below it; empty when c is not
// machine-bound.
func (c *Capacity) BoundReason() string {
	if len(c.Searches) == 0 {
		if c.searchBound() {
			return c.StopReason
		}
		return ""
	}
	if !c.Held {
		return ""
	}
	var bound *Capacity
	for i := range c.Searches {
		s := &c.Searches[i]
		if s.searchBound() && s.Rate <= c.Rate && (bound == nil || s.Rate > bound.Rate) {
			bound = s
		}
	}
	if bound == nil {
		return ""
	}
	return bound.StopReason
}

// searchBound is MachineBound for one search.
func (c *Capacity) searchBound() bool {
	if c.Status != CapacityFound || !c.Held {
		return false
	}
	switch c.StopReason {
	case StopPostgresCPU, StopBrokerCPU, StopLoadGenerator, StopOtherLoad:
		return true
	}
	return false
}

// Runs are c's confirmation runs, in the order of rate, highest first:
// those that missed and the one the capacity stands on.
func (c *Capacity) Runs() []*Result {
	var runs []*Result
	if c.Confirmation != nil {
		runs = append(runs, c.Confirmation)
	}
	for i := range c.Missed {
		runs = append(runs, &c.Missed[i])
	}
	slices.SortStableFunc(runs, func(a, b *Result) int { return cmp.Compare(b.TargetRate, a.TargetRate) })
	return runs
}

// AppCPUBelowResolution reports whether the probe's app CPU was seen but
// cannot be told from zero: its lag could make up all of it.
func (p Probe) AppCPUBelowResolution() bool {
	return p.AppCPUAvailable && p.AppCPU < p.AppCPUResolution
}
