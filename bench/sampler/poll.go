package sampler

import (
	"sync"
	"time"
)

// stopIntervals bounds, in intervals, how long a poller's stop waits for
// its loop to end: twice what a Scraper's loop takes against a hung app
// (the read in flight, the tick, finalTries reads, each cut at an
// interval by the client's timeout). A read that has not returned by then
// is not waited for, and what it returns later is dropped.
const stopIntervals = 10

// poller is the loop a QueueReader and a Scraper share: it reads a target
// at once and then once every interval until stop, on a goroutine of its
// own, and keeps each reading as a Sample or, when read fails, as a miss
// at the time of the call: a gap in the series, never an error of the run.
// A tick that passes while a read is running is not made up for: the
// next reading follows on the next tick. Create one with newPoller and
// use it once.
type poller struct {
	name     string
	interval time.Duration
	// read reads the target once; at is when it was called, which the
	// Sample's At may be or may refine.
	read func(at time.Time) (Sample, error)
	last lastReading

	stop chan struct{}
	done chan struct{}

	mu       sync.Mutex // the loop records while stop may be giving up on it
	start    time.Time
	samples  []Sample
	misses   []time.Time
	finished map[string]Series
}

// lastReading is how a poller takes its reading after stop.
type lastReading struct {
	// afterTick waits for the next tick first, so that a reading in the
	// moment before stop does not stand for the one after it.
	afterTick bool
	// tries is how many times it is tried while it fails, one at least.
	tries int
}

// newPoller returns a poller that records the readings of read every
// interval as the series called name, and takes its last reading as last
// says.
func newPoller(name string, interval time.Duration, read func(at time.Time) (Sample, error), last lastReading) *poller {
	return &poller{name: name, interval: interval, read: read, last: last, stop: make(chan struct{})}
}

// startLoop starts reading, and reports false, doing nothing, when the
// poller was started before.
func (p *poller) startLoop() bool {
	if p.done != nil {
		return false
	}
	p.done = make(chan struct{})
	p.start = time.Now()
	go p.run()
	return true
}

// stopLoop ends reading, waiting for the last reading stopIntervals
// intervals at most, and returns the series keyed by its name; without a
// start it is empty. Later calls return the same result.
func (p *poller) stopLoop() map[string]Series {
	if p.finished != nil {
		return p.finished
	}
	if p.done != nil {
		close(p.stop)
		limit := time.NewTimer(stopIntervals * p.interval)
		select {
		case <-p.done:
		case <-limit.C:
		}
		limit.Stop()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished = map[string]Series{p.name: {
		Target:  Target{Name: p.name},
		Start:   p.start,
		Samples: p.samples,
		Misses:  p.misses,
	}}
	return p.finished
}

// run is the reading loop.
func (p *poller) run() {
	defer close(p.done)
	tick := time.NewTicker(p.interval)
	defer tick.Stop()
	for {
		p.take()
		select {
		case <-tick.C:
		case <-p.stop:
			if p.last.afterTick {
				<-tick.C
			}
			for range max(p.last.tries, 1) {
				if p.take() {
					break
				}
			}
			return
		}
	}
}

// take reads once and records a Sample or a miss, and reports whether it
// read the target. Once stop has given up on the loop and returned the
// series, nothing is recorded and take reports true, which ends the loop's
// last tries.
func (p *poller) take() bool {
	at := time.Now()
	sample, err := p.read(at)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished != nil {
		return true
	}
	if err != nil {
		p.misses = append(p.misses, at)
		return false
	}
	p.samples = append(p.samples, sample)
	return true
}
