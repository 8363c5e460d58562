package runner

import (
	"context"
	"fmt"
	"time"

	"crudbench/bench/barrier"
	"crudbench/bench/load"
	"crudbench/bench/results"
)

// MaxSlotLateness is how late a shard may reach a run's slot and still
// send the run: its overdue requests leave at once, a burst that a second
// keeps small. Later than that, the run would not be the schedule's.
const MaxSlotLateness = time.Second

// awaitSlot waits for the slot of the plan's run j when the run is
// sharded; see waitSlot.
func (m *measurer) awaitSlot(ctx context.Context, j int) (skip string) {
	if m.cfg.Shard == nil {
		return ""
	}
	return waitSlot(ctx, *m.cfg.Shard, m.cfg.Slots().At(j))
}

// waitSlot waits until start, the slot of the run about to be sent, and
// returns "" then; it returns why the run is skipped when the shard
// reached the slot more than MaxSlotLateness late, or ctx ended first.
func waitSlot(ctx context.Context, shard load.Shard, start time.Time) (skip string) {
	if late := time.Since(start); late > MaxSlotLateness {
		return fmt.Sprintf("shard %d/%d reached this run's slot %s late (more than %s): give a larger -shard-gap (or, for the first run, a later -start-at)",
			shard.Index, shard.Count, late.Round(time.Millisecond), MaxSlotLateness)
	}
	t := time.NewTimer(time.Until(start))
	defer t.Stop()
	select {
	case <-t.C:
		return ""
	case <-ctx.Done():
		return "interrupted before this run"
	}
}

// slotShard is the shard's part of the plan's run j, scheduled from the
// run's slot; nil when the run is not sharded.
func (m *measurer) slotShard(j int) *load.Shard {
	if m.cfg.Shard == nil {
		return nil
	}
	s := *m.cfg.Shard
	s.Start = m.cfg.Slots().At(j)
	return &s
}

// share is a shard's part of a run's rate: what the shard is judged by.
func (m *measurer) share(rate float64) float64 {
	if m.cfg.Shard == nil {
		return rate
	}
	return rate / float64(m.cfg.Shard.Count)
}

// validateShared validates as validate does, except in a sharded run:
// there shard 0 validates for every shard and must be done before the
// shared start, and the other shards do not validate and load every app
// (an app that failed validation has failed on shard 0, and so in the
// merge). With a start barrier, the shards then meet there, shard 0
// once it has validated, and learn the shared start.
func (r *runner) validateShared(ctx context.Context, run *results.Run) error {
	s := r.cfg.Shard
	if s == nil {
		r.validate(ctx, run)
		return nil
	}
	if s.Index != 0 {
		if r.cfg.Barrier != nil {
			r.con.printf("Validation is shard 0's: shard %d/%d waits at the start barrier, then loads every app.\n", s.Index, s.Count)
			return r.meet(ctx, run)
		}
		r.con.printf("Validation is shard 0's: shard %d/%d loads every app from %s.\n", s.Index, s.Count, s.Start.Format(time.RFC3339))
		return nil
	}
	r.validate(ctx, run)
	if r.cfg.Barrier != nil {
		return r.meet(ctx, run)
	}
	if late := time.Since(s.Start); late > 0 {
		return fmt.Errorf("validation on shard 0 ended %s after -start-at %s: give every shard a later -start-at", late.Round(time.Millisecond), s.Start.Format(time.RFC3339))
	}
	r.con.printf("Shard %d/%d: the first run starts at %s.\n", s.Index, s.Count, s.Start.Format(time.RFC3339))
	return nil
}

// meet waits at the start barrier, sets the shared start it learns there,
// and notes how the shards met (when each was ready, whether any was
// missing, how late this shard learned the start) and where this shard
// ran.
func (r *runner) meet(ctx context.Context, run *results.Run) error {
	s := r.cfg.Shard
	st, err := r.cfg.Barrier.Wait(ctx)
	if err != nil {
		return err
	}
	s.Start = st.At
	run.Settings.Shard = r.cfg.ShardSettings()
	r.note(barrierNote(*s, st))
	if n := placementNote(*s); n != "" {
		r.note(n)
	}
	r.con.printf("Shard %d/%d: the start barrier set the first run's start at %s.\n", s.Index, s.Count, st.At.Format(time.RFC3339Nano))
	return nil
}

// barrierNote says how shard s met the others at the start barrier.
func barrierNote(s load.Shard, st barrier.Start) string {
	clock := func(t time.Time) string { return t.UTC().Format("15:04:05.000") }
	who := fmt.Sprintf("all %d shards were ready, the first and last %s apart", s.Count, st.Spread().Round(time.Millisecond))
	if len(st.Missing) > 0 {
		who = fmt.Sprintf("shard 0 stopped waiting with shards %v not ready (-barrier-timeout)", st.Missing)
	}
	when := fmt.Sprintf("learned it %s before the start", st.At.Sub(st.Learned).Round(time.Millisecond))
	if late := st.Late(); late > 0 {
		when = fmt.Sprintf("learned it %s after the start: runs whose slot it reached more than %s late were skipped", late.Round(time.Millisecond), MaxSlotLateness)
	}
	return fmt.Sprintf("Start barrier: shard %d/%d was ready at %s UTC; shard 0 set the start at %s for %s, when %s; this shard %s.",
		s.Index, s.Count, clock(st.Arrived), clock(st.SetAt), clock(st.At), who, when)
}
