// Package capacity finds the highest constant request rate at which an app
// meets a service level objective: an exponential ramp brackets the limit,
// then bisection narrows it to a precision, every step a short probe run
// by the caller. It also says what stopped the app there.
package capacity

import (
	"context"
	"errors"
	"time"

	"crudbench/bench/results"
)

// Config is how a search runs.
type Config struct {
	// SLO: p99 latency at most SLOP99, success at least MinSuccessRatio,
	// successful throughput at least MinThroughputShare of the rate.
	SLOP99             time.Duration
	MinSuccessRatio    float64
	MinThroughputShare float64

	// Start is the first rate of the ramp; each next ramp step is Growth
	// times the last, never above Max.
	Start, Growth, Max float64
	// Precision ends the bisection: once the lowest missing rate is within
	// (1+Precision) of the highest met one.
	Precision float64

	// Cores is the number of CPUs of the machine, and AppCores how many of
	// them the app can use (its GOMAXPROCS when known, else Cores): the
	// stop reason judges CPU against them.
	Cores, AppCores int
}

// ProbeFunc measures one short constant-rate run at rate and returns its
// numbers (Met and Why are filled in by the search).
type ProbeFunc func(ctx context.Context, rate float64) (results.Probe, error)

// Outcome is what a search found.
type Outcome struct {
	// Status is results.CapacityFound, CapacityCapped or CapacityNone.
	Status string
	// Rate is the highest rate that met the SLO (0 with CapacityNone);
	// Upper the lowest that missed it (0 with CapacityCapped).
	Rate, Upper float64
	// StopReason and StopDetail say what stopped the app at Upper.
	StopReason, StopDetail string
	// Probes in the order they ran, Met and Why filled in.
	Probes []results.Probe
}

// Search runs the search with probe. It returns the probes run so far with
// an error when a probe fails or ctx ends.
func Search(ctx context.Context, cfg Config, probe ProbeFunc) (Outcome, error) {
	return Outcome{}, errors.New("capacity.Search: not implemented yet")
}

// Met judges p against the SLO of cfg, and sets p.Met and p.Why.
func Met(cfg Config, p *results.Probe) bool {
	return false
}

// StopReason says what kept the app from meeting the SLO at p, a probe
// that missed it: one of the results.Stop* constants, and a sentence with
// the numbers it was judged on.
func StopReason(cfg Config, p results.Probe) (reason, detail string) {
	return "", ""
}
