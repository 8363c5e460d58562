// Package capacity finds the highest constant request rate at which an app
// meets a service level objective: an exponential ramp brackets the limit,
// then bisection narrows it to a precision, every step a short probe run
// by the caller. It also says what stopped the app there.
//
// The search assumes that meeting the SLO is monotone in the rate: an app
// that misses it at some rate misses it at every higher one. That is what
// lets a single probe per rate bracket the limit. It takes each probe at
// its word: a miss is a miss, even one just above many met rates, and is
// never retried. A retry would turn a limit into a vote between samples;
// an app that misses its SLO once in a short probe will miss it in
// production too, so the lower capacity is the honest one. The caller's
// full-length confirmation run at the rate found is the check on noise.
package capacity

import (
	"context"

	"crudbench/bench/results"
)

// ProbeFunc measures one short constant-rate run at rate and returns its
// numbers (Met and Why are filled in by the search).
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
