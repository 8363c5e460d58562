package load

import (
	"fmt"
	"time"
)

// Shard is one runner's part of a schedule that several runners share, so
// that together they send the load one runner could not. The schedule's
// requests are numbered n = 0, 1, 2, ... as one runner at the full rate
// would send them, request n due (n+1) intervals after Start; the shard
// sends those with n mod Count == Index. Start is a wall-clock time, the
// same for every shard, so runners on machines with synchronised clocks
// interleave their requests instead of sending them in bursts.
type Shard struct {
	Index, Count int
	Start        time.Time
}

// check reports a shard that names no part of a schedule.
func (s Shard) check() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want 0 ≤ index < count", s.Index, s.Count)
	}
	if s.Start.IsZero() {
		return fmt.Errorf("shard %d/%d: no start time", s.Index, s.Count)
	}
	return nil
}

// Number is the schedule's number of the shard's k-th request (from 0).
func (s Shard) Number(k uint64) uint64 {
	return uint64(s.Index) + k*uint64(s.Count)
}

// share is how many of a schedule's total requests fall to the shard.
func (s Shard) share(total uint64) uint64 {
	if total <= uint64(s.Index) {
		return 0
	}
	return (total-uint64(s.Index)-1)/uint64(s.Count) + 1
}

// ShardPacer paces a shard's part of a schedule: hit k of the shard is
// request Number(k) of the schedule and leaves when the wall clock reaches
// its due time, however late the attack began; a hit already overdue
// leaves at once. It stops after the shard's share of the schedule's hits.
type ShardPacer struct {
	Shard
	// Schedule is the pacer of the whole schedule, every shard's requests
	// together.
	Schedule Pacer
	// Hits is how many requests the shard sends in all.
	Hits uint64
}

// NewShardPacer returns the pacer of shard s of the schedule of rate
// requests per second for d.
func NewShardPacer(s Shard, rate float64, d time.Duration) ShardPacer {
	all := NewPacer(rate, d)
	return ShardPacer{Shard: s, Schedule: all, Hits: s.share(all.Hits)}
}

// Due is when the shard's k-th hit (from 0) is due: the due time of its
// request in the schedule, k intervals of the shard's own apart.
func (p ShardPacer) Due(k uint64) time.Time {
	return p.Start.Add(time.Duration(p.Number(k)+1) * p.Schedule.interval())
}

// Pace implements vegeta.Pacer. It ignores the attack's elapsed time: the
// schedule is counted from Start on the wall clock.
func (p ShardPacer) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	if hits >= p.Hits {
		return 0, true
	}
	return max(0, time.Until(p.Due(hits))), false
}

// Rate implements vegeta.Pacer: the shard's share of the schedule's rate.
func (p ShardPacer) Rate(elapsed time.Duration) float64 {
	return p.Schedule.Rate(elapsed) / float64(p.Count)
}
