// Package capacity finds the highest constant request rate at which an app
// meets a service level objective: an exponential ramp brackets the limit,
// then bisection narrows it to a precision, every step a short probe run
// by the caller. It also says what stopped the app there.
//
// The search assumes that meeting the SLO is monotone in the rate: an app
// that misses it at some rate misses it at every higher one. That is what
// lets the search bracket the limit. It does not take one probe at its
// word, though: on a machine the app shares with PostgreSQL and the load
// generator, one short probe in a few misses by a spike of the machine
// (a stalled thread, a collection, another process) at a rate the app
// holds every other time, and a search that believed it would report a
// capacity that moves 2× between identical runs. A rate is therefore
// decided by two of up to three probes (MaxTries); an app that misses
// twice in three tries misses its SLO at that rate. Full-length
// confirmation runs then check the rate found, and step down from it while
// they miss (Confirm).
package capacity

import (
	"context"

	"crudbench/bench/results"
)

// ProbeFunc measures one short constant-rate run at rate and returns its
// numbers (the search sets Rate to rate and fills in Met and Why).
type ProbeFunc func(ctx context.Context, rate float64) (results.Probe, error)

// Outcome is what a search found.
type Outcome struct {
	// Status is results.CapacityFound, CapacityCapped or CapacityNone;
	// empty when the search ended with an error.
	Status string
	// Rate is the highest rate that met the SLO (0 with CapacityNone);
	// Upper the lowest that missed it (0 with CapacityCapped).
	Rate, Upper float64
	// StopReason and StopDetail say what stopped the app at Upper.
	StopReason, StopDetail string
	// Probes in the order they ran, Met and Why filled in.
	Probes []results.Probe
}
