package capacity

import (
	"context"
	"fmt"
	"math"

	"crudbench/bench/results"
)

// Search runs the search with probe. It ramps from cfg.Start by cfg.Growth
// up to cfg.Max (the last ramp step is exactly Max) until a probe misses
// the SLO, then bisects the bracket geometrically (a rate's neighbours are
// a factor apart, not a number of req/s) until the lowest missing rate is
// within 1+cfg.Precision of the highest met one. Each rate is probed once
// (see the package doc for why). It returns the probes run so far with an
// error when cfg is invalid, a probe fails or ctx ends.
func Search(ctx context.Context, cfg Config, probe ProbeFunc) (Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return Outcome{}, err
	}
	s := &search{cfg: cfg, probe: probe}
	if err := s.ramp(ctx); err != nil {
		return s.out, err
	}
	if err := s.bisect(ctx); err != nil {
		return s.out, err
	}
	s.conclude()
	return s.out, nil
}

// search is the state of one Search: the outcome so far, and the probe at
// its Upper rate, the lowest that missed.
type search struct {
	cfg   Config
	probe ProbeFunc
	out   Outcome
	miss  results.Probe
}

// ramp probes Start, Start×Growth, … up to Max until one misses.
func (s *search) ramp(ctx context.Context) error {
	for rate := s.cfg.Start; ; rate = min(rate*s.cfg.Growth, s.cfg.Max) {
		met, err := s.run(ctx, rate)
		if err != nil || !met || rate >= s.cfg.Max {
			return err
		}
	}
}

// bisect narrows a bracket the ramp found to the precision; it does
// nothing when the ramp found none.
func (s *search) bisect(ctx context.Context) error {
	for s.out.Rate > 0 && s.out.Upper > s.out.Rate*(1+s.cfg.Precision) {
		if _, err := s.run(ctx, math.Sqrt(s.out.Rate*s.out.Upper)); err != nil {
			return err
		}
	}
	return nil
}

// run probes rate and moves the bracket: a met rate is the new Rate, a
// missed one the new Upper (under monotony each probe lies between them).
func (s *search) run(ctx context.Context, rate float64) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("capacity search stopped before %s req/s: %w", decimals(rate, 1), err)
	}
	p, err := s.probe(ctx, rate)
	if err != nil {
		return false, fmt.Errorf("capacity probe at %s req/s: %w", decimals(rate, 1), err)
	}
	p.Rate = rate
	met := Met(s.cfg, &p)
	s.out.Probes = append(s.out.Probes, p)
	if met {
		s.out.Rate = rate
	} else {
		s.out.Upper, s.miss = rate, p
	}
	return met, nil
}

// conclude sets the status and the stop reason of a finished search.
func (s *search) conclude() {
	switch {
	case s.out.Upper == 0:
		s.out.Status = results.CapacityCapped
		s.out.StopReason = results.StopCap
		s.out.StopDetail = fmt.Sprintf("every probe up to the cap of %s req/s met the SLO: the capacity is at least %[1]s req/s",
			decimals(s.cfg.Max, 1))
		return
	case s.out.Rate == 0:
		s.out.Status = results.CapacityNone
	default:
		s.out.Status = results.CapacityFound
	}
	s.out.StopReason, s.out.StopDetail = StopReason(s.cfg, s.miss)
}
