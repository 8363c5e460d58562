package results

// Pauses is what an app's runtime paused over a measured window, from the
// scrapes of its metrics around it (once a second, as PoolCost): the
// garbage collector's and, for Node, the event loop's. A request that
// arrives while the runtime is paused waits for the pause to end, so
// these are the figures that can explain a tail with CPU to spare.
type Pauses struct {
	// GC is the collector's pauses: Go's stop-the-world pauses
	// (runtime/metrics' /sched/pauses/total/gc:seconds), Node's collections
	// of every kind (nodejs_gc_duration_seconds); nil when not exported.
	GC *GCPauses `json:"gc,omitempty"`
	// EventLoop is Node's event-loop delay (nodejs_eventloop_lag_*); nil
	// for other runtimes.
	EventLoop *LoopDelay `json:"eventLoop,omitempty"`
}

// GCPauses are the garbage collector's pauses over a window.
type GCPauses struct {
	// P99Ms is the 99th percentile of the pauses, interpolated within its
	// bucket of the runtime's histogram (Go's buckets are a factor of
	// about 11 apart, Node's as the app sets them).
	P99Ms float64 `json:"p99Ms"`
	// MsPerSecond is the time paused per second of the window, and
	// PerSecond the pauses per second.
	MsPerSecond float64 `json:"msPerSecond"`
	PerSecond   float64 `json:"perSecond"`
}

// LoopDelay is how late Node's event loop ran its timer over a window:
// the time it was held beyond the timer's interval (by JavaScript, a
// collection or anything else on its one thread).
type LoopDelay struct {
	// MaxMs is the longest delay beyond the interval, and P99Ms the
	// highest of each scrape's p99 delay beyond it. The timer ticks once a
	// turn, so a loop held 300 ms once a second is one tick among a
	// hundred: it is in MaxMs, and under most seconds' p99.
	MaxMs float64 `json:"maxMs"`
	P99Ms float64 `json:"p99Ms"`
	// MsPerSecond is the time the loop was held beyond the timer's
	// interval per second of the window.
	MsPerSecond float64 `json:"msPerSecond"`
}
