package capacity

import (
	"context"
	"fmt"
	"math"
	"time"

	"crudbench/bench/results"
)

// Search runs the search with probe. It ramps from cfg.Start by cfg.Growth
// up to cfg.Max (the last ramp step is exactly Max) until a rate misses
// the SLO, then bisects the bracket geometrically (a rate's neighbours are
// a factor apart, not a number of req/s) until the lowest missing rate is
// within 1+cfg.Precision of the highest met one. A rate is decided by up
// to MaxTries probes (see decide). It returns the probes run so far with
// an error when cfg is invalid, a probe fails or ctx ends.
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

// run decides rate and moves the bracket: a met rate is the new Rate, a
// missed one the new Upper (under monotony each rate lies between them).
func (s *search) run(ctx context.Context, rate float64) (bool, error) {
	met, missed := 0, 0
	var miss results.Probe
	for try := 1; met == 0 && missed < 2 || met == 1 && missed == 1; try++ {
		p, err := s.try(ctx, rate, try)
		if err != nil {
			return false, err
		}
		if p.Met {
			met++
			continue
		}
		if missed++; missed == 1 || worse(p, miss) {
			miss = p
		}
	}
	if missed < 2 {
		s.out.Rate = rate
		return true, nil
	}
	s.out.Upper, s.miss = rate, miss
	return false, nil
}

// try runs one probe of rate, after a pause when the last probe missed
// badly, and records it.
func (s *search) try(ctx context.Context, rate float64, try int) (results.Probe, error) {
	if n := len(s.out.Probes); n > 0 && s.cfg.MissPause > 0 && MissedBadly(s.cfg, s.out.Probes[n-1]) {
		select {
		case <-ctx.Done():
		case <-time.After(s.cfg.MissPause):
		}
	}
	if err := ctx.Err(); err != nil {
		return results.Probe{}, fmt.Errorf("capacity search stopped before %s req/s: %w", decimals(rate, 1), err)
	}
	p, err := s.probe(ctx, rate)
	if err != nil {
		return results.Probe{}, fmt.Errorf("capacity probe at %s req/s: %w", decimals(rate, 1), err)
	}
	p.Rate, p.Try = rate, try
	Met(s.cfg, &p)
	s.out.Probes = append(s.out.Probes, p)
	return p, nil
}

// worse reports whether missed probe a missed by more than b: it kept
// up with less of its rate, or as well with a longer p99. The stop reason
// is judged on the worst miss of the rate that decided the search, the
// clearest evidence of what limits the app there.
func worse(a, b results.Probe) bool {
	sa, sb := a.Throughput/a.Rate, b.Throughput/b.Rate
	return sa < sb || sa == sb && a.P99 > b.P99
}

// MissedBadly reports whether p missed the SLO by more than a hair: it
// queued (did not keep up with its rate or lost requests, by the SLO's
// terms) or its p99 was over twice the SLO. Such a probe can leave work behind
// it — connections, PostgreSQL backends, garbage — that would spill into
// the next probe.
func MissedBadly(cfg Config, p results.Probe) bool {
	j := cfg.SLO.JudgeProbe(p)
	return !j.Met && (!j.HeldRate || p.P99 > 2*msOf(cfg.SLO.P99))
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
