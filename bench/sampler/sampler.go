// Package sampler records the CPU time and memory of running processes from
// /proc while a load runs, so the bench can report what each server cost.
//
// A Sampler reads every target at a fixed interval (10 Hz by default) on one
// goroutine locked to its own OS thread, which lets it report its own cost
// (Overhead). CPU times in /proc advance in 1/100 s ticks, so CPU rates are
// only derived over windows of at least one second (Series.Window), never
// from a single 100 ms step.
//
// The package reads Linux's /proc; elsewhere every target is Missing.
package sampler

import (
	"fmt"
	"runtime"
	"time"
)

// DefaultInterval is the sampling interval New uses when given zero.
const DefaultInterval = 100 * time.Millisecond

// TreeEvery is how often, in samples, a tree target refreshes its list of
// processes and their Pss: reading smaps_rollup walks the whole address
// space (milliseconds for a large PostgreSQL), and listing /proc reads every
// process's stat. Between refreshes the known processes' CPU is still read
// at every sample and the last memory value is carried.
const TreeEvery = 10

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
	for _, t := range targets {
		if seen[t.Name] {
			panic(fmt.Sprintf("sampler: duplicate target name %q", t.Name))
		}
		seen[t.Name] = true
		s.trackers = append(s.trackers, &tracker{target: t})
	}
	return s
}

// Start takes the first sample at once and then one every interval until
// Stop. It must be called at most once.
func (s *Sampler) Start() {
	if s.done != nil {
		panic("sampler: Start called twice")
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
// one core over the time it ran (0.01 = 1% of a core). It measures the
// thread's own CPU time (getrusage RUSAGE_THREAD), /proc reads, parsing and
// timer wake-ups included, so it is a cost, not a wall-clock estimate. It
// is zero before Stop.
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

	tick := time.NewTicker(s.interval)
	defer tick.Stop()
	for n := 0; ; n++ {
		s.sampleAll(n%TreeEvery == 0)
		select {
		case <-tick.C:
		case <-s.stop:
			// A fresh, full last sample, so a window ending at Stop has
			// its end values.
			s.sampleAll(true)
			s.cpu, s.wall = threadCPU()-cpu0, time.Since(wall0)
			return
		}
	}
}

// sampleAll reads every target once. full asks tree targets to refresh
// their process lists and memory; the /proc listing is shared by all trees.
func (s *Sampler) sampleAll(full bool) {
	var children map[int][]procStat
	if full {
		for _, t := range s.trackers {
			if t.target.Tree {
				children = s.childrenByParent()
				break
			}
		}
	}
	now := time.Now()
	for _, t := range s.trackers {
		t.sample(&s.reader, now, full, children)
	}
}

// childrenByParent lists every process under its parent's pid. A failed
// listing yields nil: the trees keep their known members until the next
// refresh.
func (s *Sampler) childrenByParent() map[int][]procStat {
	procs, err := s.reader.scanProcs()
	if err != nil {
		return nil
	}
	m := make(map[int][]procStat)
	for _, p := range procs {
		m[p.ppid] = append(m[p.ppid], p)
	}
	return m
}
