package load

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// ClosedPacer paces a closed loop: a fixed number of clients, each sending
// its next request as soon as its last was answered, with no think time,
// for a warm-up and then a measured window. It is the load the studies
// measured with (hey -c N, autocannon's connections, k6's virtual users):
// the server's speed sets the rate, instead of a schedule.
//
// vegeta's attack with Workers(N) and MaxWorkers(N) already never has more
// than N requests in flight, but it asks its pacer before a worker is
// free and then waits for one: the decision to send would lag the send by
// up to a response time, so a request decided during the warm-up could go
// out in the window and one decided before the end could go out after it
// (belonging to no window, yet running SQL statements counted in its
// pg_stat_statements delta). ClosedPacer therefore blocks in Pace until a
// client is free, and only then reads the clock: a request is released
// when a client is ready to send it, and none is released once the window
// has ended.
type ClosedPacer struct {
	// free holds a token for each client not waiting for an answer.
	free chan struct{}
	// done ends the attack early.
	done          <-chan struct{}
	began         time.Time
	warmup, total time.Duration
	// first is the number of requests released before the window began,
	// math.MaxUint64 until it has; released counts every request.
	first, released atomic.Uint64
}

// NewClosedPacer returns the pacer of a closed loop of clients that starts
// now, runs for warmup and then for duration, and stops early when done
// is closed.
func NewClosedPacer(clients int, warmup, duration time.Duration, done <-chan struct{}) *ClosedPacer {
	p := &ClosedPacer{
		free: make(chan struct{}, clients), done: done,
		began: time.Now(), warmup: warmup, total: warmup + duration,
	}
	for range clients {
		p.free <- struct{}{}
	}
	p.first.Store(math.MaxUint64)
	return p
}

// Pace implements vegeta.Pacer: it waits for a free client, then releases
// request hits (from 0) at once, or stops when the window has ended.
func (p *ClosedPacer) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	select {
	case <-p.free:
	case <-p.done:
		return 0, true
	}
	elapsed := time.Since(p.began)
	if elapsed >= p.total {
		return 0, true
	}
	if elapsed >= p.warmup && p.first.Load() == math.MaxUint64 {
		p.first.Store(hits)
	}
	p.released.Add(1)
	return 0, false
}

// Rate implements vegeta.Pacer. A closed loop has no rate of its own: the
// server's answers set it; Rate is 0.
func (p *ClosedPacer) Rate(time.Duration) float64 { return 0 }

// Answered frees the client whose answer came back.
func (p *ClosedPacer) Answered() { p.free <- struct{}{} }

// First is the number of requests released before the measured window
// began, and ok is false while it has not.
func (p *ClosedPacer) First() (first uint64, ok bool) {
	first = p.first.Load()
	return first, first != math.MaxUint64
}

// closedLoop runs the attack of opts.Clients clients (see Options.Clients).
func closedLoop(ctx context.Context, tr vegeta.Targeter, opts Options) (*Outcome, error) {
	if opts.Rate != 0 || opts.Shard != nil {
		return nil, fmt.Errorf("attack %s: a closed loop of clients has no rate and no shared schedule", opts.Name)
	}
	attacker := newAttacker(opts)
	pacer := NewClosedPacer(opts.Clients, opts.Warmup, opts.Duration, ctx.Done())
	out := &Outcome{Began: pacer.began, Window: newClosedWindow(pacer.began.Add(opts.Warmup), opts.Duration)}
	rec := newRecorder(opts, schedule{number: func(seq uint64) uint64 { return seq }}, out)
	rec.pacer = pacer
	stopWatching := watch(ctx, attacker, opts, pacer.began, rec)
	waitHook := atWindowStart(out.Window.Start, opts.WindowStart)
	for r := range attacker.Attack(tr, pacer, 0, opts.Name) {
		pacer.Answered()
		rec.add(r)
	}
	stopWatching()
	waitHook()
	if first, ok := pacer.First(); ok {
		out.Window.First, out.Window.Count = first, pacer.released.Load()-first
	}
	return rec.finish(ctx, opts)
}

// newClosedWindow returns the empty window of a closed loop from start for
// d: it holds the requests the clients sent from start on, their number
// known only at the end.
func newClosedWindow(start time.Time, d time.Duration) *Window {
	w := NewWindow(start, d, math.MaxUint64, 0)
	w.closed = true
	return w
}
