// Package load drives one run of the benchmark with the vegeta library: a
// constant request rate (open model: requests leave on schedule whatever the
// server does), or on request a closed loop of a fixed number of clients
// (closed.go), a warm-up that is discarded, and a measured window whose
// numbers are aggregated and whose raw results are written in vegeta's own
// encoding, so that `vegeta report` and `vegeta plot` read them.
package load

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Options describe one attack.
type Options struct {
	// Name labels the results (vegeta's Attack field).
	Name string
	// Rate is the target in requests per second.
	Rate float64
	// Clients, when above zero, makes the attack a closed loop instead of
	// the open model: that many clients, each sending its next request
	// as soon as its last was answered, with no think time (ClosedPacer).
	// Rate must then be zero and Shard nil; the window holds the requests
	// sent after the warm-up, its Count known at the end.
	Clients int
	// Warmup is sent first and discarded; Duration follows and is measured.
	Warmup, Duration time.Duration
	// Timeout bounds each request, connecting and reading included.
	Timeout time.Duration
	// MaxConnections caps the open connections to the app: the only limit
	// on the load. Workers are unlimited, so a slow server makes requests
	// queue for a connection (and shows in the latency) rather than making
	// the rate silently fall short.
	MaxConnections int
	// Transport, when set, carries every request instead of vegeta's own
	// HTTP/1.1 transport, and MaxConnections does not apply: the grpc
	// kind's grpcwire.Transport, whose connections are its own.
	Transport http.RoundTripper
	// Observe, when set, sees every result before it is counted and may
	// mark it as failed by setting its Error.
	Observe func(*vegeta.Result)
	// Raw, when set, receives the measured window's results in vegeta's
	// binary encoding, without response bodies, numbered from 0 as a
	// whole attack of their own would be.
	Raw io.Writer
	// Progress, when set, is called about four times a second.
	Progress func(Progress)
	// Shard, when set, makes the attack one runner's part of a schedule
	// shared with others: the schedule of Rate, Warmup and Duration runs
	// from Shard.Start, and the attack sends only the shard's requests.
	// Results, Observe and Raw then see each request's number in the
	// whole schedule as its Seq, and the window is the whole schedule's,
	// holding the shard's share of it.
	Shard *Shard
	// WindowStart, when set, is called in a goroutine of its own when the
	// measured window starts by the schedule, so that what watches the
	// window (a CPU profile) covers exactly it. Attack returns only after
	// it has returned; it is not called when the attack ends before the
	// window starts.
	WindowStart func()
}

// Progress is the state of an attack under way.
type Progress struct {
	Elapsed, Total time.Duration
	// Warmup is true while the warm-up is being sent.
	Warmup bool
	// Sent is how many answers (or failures) came back so far; Errors how
	// many of them failed.
	Sent, Errors uint64
	// Rate is the answers per second over the last second.
	Rate float64
}

// Outcome is what one attack measured.
type Outcome struct {
	// Began is when the schedule started (a shard's: Shard.Start): its
	// request n is due n+1 intervals later.
	Began time.Time
	// Window is the measured part; its Start and End bound the samples
	// that belong to it.
	Window *Window
	// End is when the last answer of the whole attack arrived.
	End time.Time
	Summary
	// Sent counts every request, warm-up included, and Succeeded those of
	// them that succeeded.
	Sent, Succeeded uint64
	// Interrupted is true when ctx ended the attack early.
	Interrupted bool
}

// Pacer paces an attack at a constant rate (fractional rates included) and
// stops after exactly the hits that fit its duration. vegeta's constant
// pacer sends hit k (from 1) at k intervals after the start, so the hits
// of a duration d are those at (0, d]; the limit makes sure no hit beyond d
// slips in, which would belong to no window yet could run SQL statements
// counted in the last window's pg_stat_statements delta.
type Pacer struct {
	vegeta.ConstantPacer
	// Hits is how many requests the attack sends in all.
	Hits uint64
}

// NewPacer returns the pacer of rate requests per second for d.
func NewPacer(rate float64, d time.Duration) Pacer {
	cp := vegeta.ConstantPacer{Freq: int(rate), Per: time.Second}
	if rate != math.Trunc(rate) {
		cp = vegeta.ConstantPacer{Freq: int(math.Round(rate * 1000)), Per: 1000 * time.Second}
	}
	return Pacer{ConstantPacer: cp, Hits: uint64(math.Round(rate * d.Seconds()))}
}

// Pace implements vegeta.Pacer.
func (p Pacer) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	if hits >= p.Hits {
		return 0, true
	}
	return p.ConstantPacer.Pace(elapsed, hits)
}

// interval is the time between two requests.
func (p Pacer) interval() time.Duration {
	return time.Duration(float64(time.Second) / p.Rate(0))
}

// schedule is how an attack paces its requests and numbers them.
type schedule struct {
	// all paces every request of the schedule, pacer those the attack
	// sends: all of them, or a shard's.
	all   Pacer
	pacer vegeta.Pacer
	// began is when the schedule started: request n is due n+1 intervals
	// later.
	began time.Time
	// number turns the attack's own sequence number into the request's
	// number in the schedule.
	number func(seq uint64) uint64
}

// newSchedule returns the schedule of opts, which starts now unless it is
// a shard's.
func newSchedule(opts Options) (schedule, error) {
	all := NewPacer(opts.Rate, opts.Warmup+opts.Duration)
	if opts.Shard == nil {
		return schedule{all: all, pacer: all, began: time.Now(), number: func(seq uint64) uint64 { return seq }}, nil
	}
	s := *opts.Shard
	if err := s.check(); err != nil {
		return schedule{}, fmt.Errorf("attack %s: %w", opts.Name, err)
	}
	return schedule{all: all, pacer: NewShardPacer(s, opts.Rate, opts.Warmup+opts.Duration), began: s.Start, number: s.Number}, nil
}

// window returns the schedule's measured window after warmup. Hit k (from
// 1) is scheduled k intervals after the start: the window holds the hits
// after the warm-up's, and its time bounds lie half an interval after the
// warm-up's last hit and after its own last hit, so no bound falls on a
// scheduled request.
func (s schedule) window(rate float64, warmup time.Duration) *Window {
	warm := NewPacer(rate, warmup).Hits
	interval := s.all.interval()
	return NewWindow(s.began.Add(time.Duration(warm)*interval+interval/2),
		time.Duration(s.all.Hits-warm)*interval, warm, s.all.Hits-warm)
}

// Attack runs one attack of tr at opts.Rate for opts.Warmup+opts.Duration
// with a fresh vegeta Attacker (an Attacker is single-use) and returns the
// measured window's numbers. It waits for every answer before returning.
// When ctx ends the attack stops early and the outcome is Interrupted.
func Attack(ctx context.Context, tr vegeta.Targeter, opts Options) (*Outcome, error) {
	if opts.Clients > 0 && opts.Duration > 0 && opts.Warmup >= 0 {
		return closedLoop(ctx, tr, opts)
	}
	if opts.Rate <= 0 || opts.Duration <= 0 || opts.Warmup < 0 {
		return nil, fmt.Errorf("attack %s: rate and duration must be above zero", opts.Name)
	}
	attacker := newAttacker(opts)
	sched, err := newSchedule(opts)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Began: sched.began, Window: sched.window(opts.Rate, opts.Warmup)}
	rec := newRecorder(opts, sched, out)
	stopWatching := watch(ctx, attacker, opts, sched.began, rec)
	waitHook := atWindowStart(out.Window.Start, opts.WindowStart)
	// No duration for vegeta: it would stop when its clock passes one, and
	// a load generator running even a little late (the last hit is due at
	// exactly the duration) would leave the hits still due unsent. The
	// pacer stops after exactly its hits, however late they go out.
	for r := range attacker.Attack(tr, sched.pacer, 0, opts.Name) {
		rec.add(r)
	}
	stopWatching()
	waitHook()
	return rec.finish(ctx, opts)
}

// finish completes the outcome of an attack whose every result rec has
// recorded.
func (rec *recorder) finish(ctx context.Context, opts Options) (*Outcome, error) {
	out := rec.out
	encErr := rec.flush()
	out.Sent = rec.sent.Load()
	out.Succeeded = out.Sent - rec.failed.Load()
	out.Interrupted = ctx.Err() != nil
	out.Summary = out.Window.Summary()
	if encErr != nil {
		return out, fmt.Errorf("attack %s: write raw results: %w", opts.Name, encErr)
	}
	if out.Interrupted {
		return out, errors.Join(fmt.Errorf("attack %s interrupted", opts.Name), ctx.Err())
	}
	return out, nil
}

// newAttacker returns the vegeta Attacker of opts.
func newAttacker(opts Options) *vegeta.Attacker {
	// Workers are unlimited in the open model (see MaxConnections); a
	// closed loop's clients are its workers, one request in flight each.
	workers, maxWorkers := uint64(vegeta.DefaultWorkers), uint64(math.MaxUint64)
	if opts.Clients > 0 {
		workers, maxWorkers = uint64(opts.Clients), uint64(opts.Clients)
	}
	options := []func(*vegeta.Attacker){
		vegeta.MaxConnections(opts.MaxConnections),
		vegeta.Connections(max(opts.MaxConnections, 1)),
		vegeta.KeepAlive(true),
		vegeta.Workers(workers),
	}
	if opts.Transport != nil {
		// Client replaces vegeta's client whole, so it comes after the
		// options that assume vegeta's *http.Transport; the timeout and
		// the redirects are then set on it.
		options = append(options, vegeta.Client(&http.Client{Transport: opts.Transport}))
	}
	return vegeta.NewAttacker(append(options,
		vegeta.Timeout(opts.Timeout),
		vegeta.MaxWorkers(maxWorkers),
		vegeta.Redirects(vegeta.NoFollow), // a site's 303 is the answer measured
	)...)
}

// recorder takes every result of an attack as it arrives: it numbers it in
// the schedule, lets Observe see it, counts it, adds it to the window and
// writes the window's results to Raw.
type recorder struct {
	number func(seq uint64) uint64
	// pacer is a closed loop's, which says when its window opened; nil
	// in the open model.
	pacer        *ClosedPacer
	observe      func(*vegeta.Result)
	out          *Outcome
	sent, failed atomic.Uint64
	raw          *bufio.Writer
	encode       vegeta.Encoder
	// encErr is the first error writing Raw; results after it are not
	// written.
	encErr error
}

// newRecorder returns the recorder of an attack that fills out.
func newRecorder(opts Options, sched schedule, out *Outcome) *recorder {
	rec := &recorder{number: sched.number, observe: opts.Observe, out: out}
	if opts.Raw != nil {
		rec.raw = bufio.NewWriterSize(opts.Raw, 64<<10)
		rec.encode = vegeta.NewEncoder(rec.raw)
	}
	return rec
}

// add records one result.
func (rec *recorder) add(r *vegeta.Result) {
	r.Seq = rec.number(r.Seq)
	if rec.observe != nil {
		rec.observe(r)
	}
	rec.sent.Add(1)
	if !Succeeded(r) {
		rec.failed.Add(1)
	}
	if end := r.End(); end.After(rec.out.End) {
		rec.out.End = end
	}
	if rec.pacer != nil {
		if first, ok := rec.pacer.First(); ok {
			rec.out.Window.open(first)
		}
	}
	if !rec.out.Window.Add(r) || rec.encode == nil || rec.encErr != nil {
		return
	}
	r.Body, r.Headers = nil, nil // the raw file keeps timings, not payloads
	// Numbered from 0 within the window: vegeta plot orders results by
	// sequence number and draws nothing until it has seen number 0.
	r.Seq -= rec.out.Window.First
	rec.encErr = rec.encode(r)
}

// flush writes what Raw still holds in its buffer and returns the first
// error writing it.
func (rec *recorder) flush() error {
	if rec.raw != nil && rec.encErr == nil {
		rec.encErr = rec.raw.Flush()
	}
	return rec.encErr
}

// watch reports progress, when opts asks for it, and stops attacker when
// ctx ends, until the function it returns is called; that function waits
// for both to finish.
func watch(ctx context.Context, attacker *vegeta.Attacker, opts Options, began time.Time, rec *recorder) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	if opts.Progress != nil {
		total := opts.Warmup + opts.Duration
		wg.Go(func() { report(opts.Progress, began, opts.Warmup, total, &rec.sent, &rec.failed, done) })
	}
	wg.Go(func() {
		select {
		case <-ctx.Done():
			attacker.Stop()
		case <-done:
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// atWindowStart calls hook at start, unless it is nil, and returns the
// function that waits for it to return, or cancels it when start has not
// come.
func atWindowStart(start time.Time, hook func()) (wait func()) {
	if hook == nil {
		return func() {}
	}
	var done sync.WaitGroup
	done.Add(1)
	t := time.AfterFunc(time.Until(start), func() {
		defer done.Done()
		hook()
	})
	return func() {
		if t.Stop() {
			done.Done()
		}
		done.Wait()
	}
}

// report calls progress four times a second until stop is closed.
func report(progress func(Progress), began time.Time, warmup, total time.Duration, sent, failed *atomic.Uint64, stop <-chan struct{}) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	type point struct {
		at   time.Time
		sent uint64
	}
	var history []point
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			n := sent.Load()
			history = append(history, point{now, n})
			for len(history) > 1 && now.Sub(history[0].at) > time.Second {
				history = history[1:]
			}
			var rate float64
			if span := now.Sub(history[0].at); span > 0 {
				rate = float64(n-history[0].sent) / span.Seconds()
			}
			elapsed := now.Sub(began)
			progress(Progress{
				Elapsed: min(elapsed, total),
				Total:   total,
				Warmup:  elapsed < warmup,
				Sent:    n,
				Errors:  failed.Load(),
				Rate:    rate,
			})
		}
	}
}
