package capacity

import "time"

// The search's constants, every one of them here: the flags' defaults
// (package config reads them), the ramp's step, how many probes decide a
// rate, the confirmations and their step down, the pauses and what a probe
// names of the machine's other work. The SLO's thresholds are results'
// (results.CapacitySLO), which owns "met"; the stop reason's are in
// stop.go, beside the judgement they make.

// The flags' defaults. The ramp starts where every app is comfortably
// within the SLO on two cores and stops at a rate no app reaches there
// (the load generator alone would need most of a core), so the cap only
// ends a search on bigger machines. A probe is 2 s of warm-up (pools
// filled, the GC at its pace) and 5 s measured: at least 500 requests at
// the first rate, enough for a p99, and short enough that the two core
// scenarios on three apps take under 12 minutes.
const (
	DefaultStart         = 100
	DefaultMax           = 4000
	DefaultPrecision     = 0.05
	DefaultProbeWarmup   = 2 * time.Second
	DefaultProbeDuration = 5 * time.Second
)

// Growth is the factor between the ramp's steps: doubling brackets a
// limit between 100 req/s and the cap in a handful of probes, and the
// bisection then needs four more to reach 5%.
const Growth = 2

// MaxTries is the most probes one rate takes: a rate is met when its
// first probe meets the SLO, or two of three do; missed when two miss.
// One probe that missed among met ones is a spike — a pause of the
// machine, a collection, another process — and a single one must not
// decide the capacity; an app that misses twice in three tries misses
// its SLO at that rate.
const MaxTries = 3

// The confirmation runs of a search. Probes are short (seconds), and a
// rate that two short probes met can still miss the SLO over a
// full-length run: a longer window holds more of the machine's stalls
// and the app's collections. A capacity whose own full-length run missed
// is no capacity a reader can plan on, so a confirmation that misses is
// followed by another ConfirmStep lower, up to MaxConfirmations runs in
// all: the capacity is the highest rate a full-length run held. A 10%
// step is twice the search's default precision, larger than the noise
// of the bisection's last step, small enough that one step does not give
// up what the app can do.
const (
	MaxConfirmations = 3
	ConfirmStep      = 0.9
)

// MaxProbePause bounds the pause before each probe, the runs' cool-down
// otherwise, so that one probe's queue does not spill into the next
// without a search of dozens of probes waiting the cool-down each time.
const MaxProbePause = time.Second

// MissPauses is how many of the pauses before a probe the search adds
// after a probe that missed badly (Config.MissPause): long enough for a
// queue's garbage, connections and PostgreSQL backends to settle.
const MissPauses = 4

// OthersNamed is how many of the machine's other processes a probe names
// (results.Probe.Others), and OthersLeast the least CPU, in cores, for
// which one is named.
const (
	OthersNamed = 3
	OthersLeast = 0.02
)
