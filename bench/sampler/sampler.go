// Package sampler records the CPU time and memory of running processes from
// /proc while a load runs, so the bench can report what each server cost.
//
// A Sampler reads every target at a fixed interval (10 Hz by default) on one
// goroutine locked to its own OS thread, which lets it report its own cost
// (Overhead). A process's CPU time is read from its CPU clock
// (clock_getcpuclockid(3)) in nanoseconds, exited threads included, rather
// than from /proc/<pid>/stat's 10 ms ticks, which read zero for a process
// that spends a few ms in a short run. The clock trails a busy thread by up
// to a scheduler tick, so every reading carries that bound
// (Sample.CPUBehind, Stats.CPUResolution), and CPU rates are only derived
// over windows of at least one second (Series.Window), never from a single
// 100 ms step.
//
// A single process's memory is its VmRSS. A tree (Target.Tree, for
// PostgreSQL) is the root plus its descendants, found through
// /proc/<pid>/task/<tid>/children (a scan of all of /proc on kernels
// without those files); its CPU time is each process's own time plus that
// of the children it has reaped (in ticks: /proc has nothing finer), so
// backends that exit between samples are still counted, and its memory is the sum of Pss, which splits shared
// pages among the processes that map them instead of counting PostgreSQL's
// shared buffers once per backend.
//
// Processes exit at any moment: a vanished tree member is dropped, a
// vanished or unreadable target is recorded as a miss (Stats.Missing), and
// neither is an error.
//
// The package reads Linux's /proc; elsewhere every target is Missing.
//
// A process that /proc cannot see (another host or container) is read from
// its Prometheus metrics instead, by a Scraper: the same Series, from the
// process collector's counters, at most once a second, with coarser
// CPUBehind (whole clock ticks) and the app's database pool counters.
package sampler

import (
	"fmt"
	"runtime"
	"time"
)

// DefaultInterval is the sampling interval New uses when given zero.
const DefaultInterval = 100 * time.Millisecond

// TreeEvery is how often, in samples, a tree target looks for new
// processes below its root's children (PostgreSQL's parallel workers are
// the postmaster's children too, so this is rare). The root's own children
// are listed at every sample: a backend or cluster worker that starts
// during a run is read from its first 100 ms, so its CPU time is counted in
// the window it was spent in, not in a later one when it is found. A
// process that starts and ends between two listings is not lost either:
// its time reaches its parent's cutime.
const TreeEvery = 10

// MemoryEvery is how often, in samples, a tree target measures its memory
// (Pss) again: reading smaps_rollup walks a whole address space,
// milliseconds for a large PostgreSQL with sixty backends. In between, the
// memory value is carried; the last sample (at Stop) always measures it.
const MemoryEvery = 100

// Target says what to sample.
type Target struct {
	// Name identifies the target's Series; names must be unique.
	Name string
	// PID is the process to sample.
	PID int
	// Tree adds the process's descendants and the CPU time of the children
	// it has already reaped (cutime+cstime): PostgreSQL is a postmaster
	// plus one short- or long-lived backend per connection. A tree's memory
	// is the sum of Pss (shared pages divided among their users) so shared
	// buffers are not counted once per backend.
	Tree bool
	// Machine samples the whole machine instead of a process (PID is
	// ignored): CPU is the busy time of every CPU added up, from
	// /proc/stat, so a window's CPUMean is the busy cores, read on the
	// same clock as the processes beside it. It has no memory.
	Machine bool
}

// Sampler samples its targets from Start until Stop. Create one with New;
// a Sampler is single-use.
type Sampler struct {
	interval time.Duration
	trackers []*tracker
	reader   procReader

	stop chan struct{}
	done chan struct{}

	start    time.Time     // set by Start
	cpu      time.Duration // the sampling thread's CPU time, set when it ends
	wall     time.Duration // how long the sampling thread ran
	stopped  bool
	finished map[string]Series
}

// New returns a Sampler that reads targets every interval once started
// (DefaultInterval when interval <= 0). It panics when two targets share a
// name, because their series would overwrite each other.
func New(interval time.Duration, targets ...Target) *Sampler {
	if interval <= 0 {
		interval = DefaultInterval
	}
	s := &Sampler{interval: interval, stop: make(chan struct{})}
	seen := make(map[string]bool, len(targets))
	lag := newLagBound()
	for _, t := range targets {
		if seen[t.Name] {
			panic(fmt.Sprintf("sampler: duplicate target name %q", t.Name))
		}
		seen[t.Name] = true
		s.trackers = append(s.trackers, newTracker(t, lag))
	}
	return s
}

// Start takes the first sample at once and then one every interval until
// Stop. It must be called at most once, and not after Stop.
func (s *Sampler) Start() {
	if s.done != nil || s.stopped {
		panic("sampler: Start on a used Sampler")
	}
	s.done = make(chan struct{})
	s.start = time.Now()
	go s.run()
}

// Stop takes a last sample, ends sampling and returns one Series per target,
// keyed by target name. Later calls return the same result; without a
// preceding Start the series are empty.
func (s *Sampler) Stop() map[string]Series {
	if s.finished != nil {
		return s.finished
	}
	if s.done != nil {
		close(s.stop)
		<-s.done
	}
	s.stopped = true
	s.finished = make(map[string]Series, len(s.trackers))
	for _, t := range s.trackers {
		s.finished[t.target.Name] = Series{
			Target:  t.target,
			Start:   s.start,
			Samples: t.samples,
			Misses:  t.misses,
		}
	}
	return s.finished
}

// Overhead returns the CPU time the sampling thread used as a fraction of
// one core over the time it ran (0.01 = 1% of a core). It is the thread's
// own CPU clock (CLOCK_THREAD_CPUTIME_ID), /proc reads, parsing and timer
// wake-ups included: a measured cost, not a wall-clock estimate. It is zero
// before Stop.
func (s *Sampler) Overhead() float64 {
	if !s.stopped || s.wall <= 0 {
		return 0
	}
	return s.cpu.Seconds() / s.wall.Seconds()
}

// run is the sampling loop. Locking it to one OS thread makes that
// thread's CPU time the sampler's cost and nothing else's.
func (s *Sampler) run() {
	defer close(s.done)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, wall0 := threadCPU(), time.Now()

	defer func() {
		for _, t := range s.trackers {
			t.close()
		}
	}()
	tick := time.NewTicker(s.interval)
	defer tick.Stop()
	for n := 0; ; n++ {
		s.sampleAll(pass{members: n%TreeEvery == 0, memory: n%MemoryEvery == 0})
		select {
		case <-tick.C:
		case <-s.stop:
			// A fresh, full last sample, so a window ending at Stop has
			// its end values.
			s.sampleAll(pass{members: true, memory: true})
			s.cpu, s.wall = threadCPU()-cpu0, time.Since(wall0)
			return
		}
	}
}

// pass says what a sample reads of a tree target besides its known
// processes' CPU and its root's children: members, every descendant (all
// of the tree listed afresh); memory, its Pss.
type pass struct {
	members, memory bool
}

// sampleAll reads every target once.
func (s *Sampler) sampleAll(p pass) {
	now := time.Now()
	for _, t := range s.trackers {
		t.sample(&s.reader, now, p)
	}
}
