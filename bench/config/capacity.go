package config

import (
	"errors"
	"fmt"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// CapacityOptions are the knobs of the capacity search: -capacity and the
// -capacity-* and -probe-* flags.
type CapacityOptions struct {
	// Search is true with -capacity.
	Search bool
	// Start is the ramp's first rate and Max its cap (req/s); Precision is
	// the relative width at which the bisection stops.
	Start, Max, Precision float64
	// ProbeWarmup and ProbeDuration time each probe; the confirmation run
	// uses the runs' -warmup and -duration.
	ProbeWarmup, ProbeDuration time.Duration
}

// DefaultCapacity holds the flags' defaults, the capacity package's
// (capacity.DefaultStart and on), where they are explained.
var DefaultCapacity = CapacityOptions{
	Start: capacity.DefaultStart, Max: capacity.DefaultMax, Precision: capacity.DefaultPrecision,
	ProbeWarmup: capacity.DefaultProbeWarmup, ProbeDuration: capacity.DefaultProbeDuration,
}

// capacityFlags are the flags that mean nothing without -capacity.
var capacityFlags = []string{"capacity-start", "capacity-max", "capacity-precision", "probe-warmup", "probe-duration"}

// readCapacity sets the SLO and the capacity search from the flags. With
// -capacity the fixed profiles run only when -profiles names them.
func (c *Config) readCapacity(v flagValues, set map[string]bool) []error {
	c.SLOP99 = *v.sloP99
	c.Capacity = CapacityOptions{
		Search: *v.capacity, Start: *v.capStart, Max: *v.capMax, Precision: *v.capPrecision,
		ProbeWarmup: *v.probeWarmup, ProbeDuration: *v.probeDuration,
	}
	if !c.Capacity.Search {
		var errs []error
		for _, name := range capacityFlags {
			if set[name] {
				errs = append(errs, fmt.Errorf("-%s only applies with -capacity", name))
			}
		}
		return errs
	}
	if !set["profiles"] {
		c.Profiles = []string{}
	}
	if err := c.Capacity.check(); err != nil {
		return []error{err}
	}
	return nil
}

// check names the first capacity setting out of range.
func (o CapacityOptions) check() error {
	switch {
	case !(o.Start > 0):
		return errors.New("-capacity-start must be above zero")
	case !(o.Max >= o.Start):
		return fmt.Errorf("-capacity-max (%g) must be at least -capacity-start (%g)", o.Max, o.Start)
	case !(o.Precision > 0 && o.Precision < 1):
		return errors.New("-capacity-precision must be between 0 and 1 (0.05: within 5%)")
	case o.ProbeWarmup < 0:
		return errors.New("-probe-warmup must not be negative")
	case o.ProbeDuration < time.Second:
		return errors.New("-probe-duration must be at least 1s: CPU rates are taken over windows of a second or more")
	}
	return nil
}

// Settings records the search's knobs in the results; nil without a search.
func (o CapacityOptions) Settings() *results.CapacitySettings {
	if !o.Search {
		return nil
	}
	return &results.CapacitySettings{
		Start: o.Start, Growth: capacity.Growth, Max: o.Max, Precision: o.Precision,
		ProbeWarmup: results.Duration(o.ProbeWarmup), ProbeDuration: results.Duration(o.ProbeDuration),
		MinSuccessRatio:    results.CapacityMinSuccessRatio,
		MinThroughputShare: results.CapacityMinThroughputShare,
	}
}
