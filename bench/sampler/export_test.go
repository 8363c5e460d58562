package sampler

import (
	"slices"
	"time"
)

// Stat mirrors the fields parsed from /proc/<pid>/stat for the external
// tests.
type Stat struct {
	PID            int
	PPID           int
	CUTime, CSTime uint64
	Threads        int
	StartTime      uint64
}

// ParseStat exposes the /proc/<pid>/stat parser to the external tests.
func ParseStat(b []byte) (Stat, error) {
	p, err := parseStat(b)
	return Stat{p.pid, p.ppid, p.cutime, p.cstime, p.threads, p.startTime}, err
}

// Children lists pid's children both ways the sampler can, from the
// per-thread children files and from a scan of all of /proc, sorted.
func Children(pid int) (fromTask, fromScan []int, err error) {
	var r procReader
	p, err := r.stat(pid)
	if err != nil {
		return nil, nil, err
	}
	if fromTask, err = r.childrenFromTask(p); err != nil {
		return nil, nil, err
	}
	scan, err := r.childrenFromScan()
	if err != nil {
		return nil, nil, err
	}
	fromScan, err = scan(p)
	slices.Sort(fromTask)
	slices.Sort(fromScan)
	return fromTask, fromScan, err
}

// ParseMachineCPU exposes the /proc/stat parser to the external tests.
var ParseMachineCPU = parseMachineCPU

// ScrapeOnce scrapes s's metrics once, as its loop does, without starting
// it, and reports whether that gave a sample: for benchmarks.
func ScrapeOnce(s *Scraper) bool {
	n := len(s.poll.samples)
	s.poll.take()
	return len(s.poll.samples) > n
}

// SampleTick reads every target of s once, as its loop does at tick n
// (members every TreeEvery ticks, memory every MemoryEvery), without
// starting it: for benchmarks.
func SampleTick(s *Sampler, n int) {
	s.sampleAll(pass{members: n%TreeEvery == 0, memory: n%MemoryEvery == 0})
}

// StopIntervals exposes how many intervals a poller's Stop waits at most.
const StopIntervals = stopIntervals

// Poller is the loop QueueReader and Scraper share, for the external
// tests.
type Poller struct{ p *poller }

// NewPoller returns a Poller of read every interval whose last reading is
// tried up to tries times.
func NewPoller(interval time.Duration, read func(at time.Time) (Sample, error), tries int) Poller {
	return Poller{newPoller("target", interval, read, lastReading{tries: tries})}
}

// Start starts the loop and reports whether it was not started before.
func (p Poller) Start() bool { return p.p.startLoop() }

// Stop stops the loop and returns its series.
func (p Poller) Stop() Series { return p.p.stopLoop()["target"] }

// Ended is closed once the loop has ended, even after Stop gave up on it.
func (p Poller) Ended() <-chan struct{} { return p.p.done }
