package cost

import (
	"maps"
	"os"
	"syscall"
	"time"

	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// Usage is the runner's own cost over one attack, read from getrusage
// and /proc/self rather than sampled, so it adds nothing to the sampler's
// cost.
type Usage struct {
	CPU, Wall        time.Duration
	RSSStart, RSSEnd uint64 // bytes
	// before and after are every process on the machine at the start and
	// end of the attack (censusOK when both could be read), to name the
	// other processes that used CPU during it (Others).
	before, after sampler.Census
	censusOK      bool
}

// Others names the processes that used the most CPU during the attack,
// besides roots and their descendants (the app, PostgreSQL, the runner):
// at most n, each of at least minCores, busiest first; none when the
// machine's processes could not be listed. It spans the whole attack,
// warm-up included, where the figures it explains span the measured
// window: a name, not a figure to subtract.
func (u Usage) Others(n int, minCores float64, roots ...int) []results.ProcessShare {
	if !u.censusOK {
		return nil
	}
	var out []results.ProcessShare
	for _, p := range u.before.Busiest(u.after, roots...) {
		if len(out) == n || p.Cores < minCores {
			break
		}
		out = append(out, results.ProcessShare{PID: p.PID, Name: p.Name, Cores: p.Cores})
	}
	return out
}

// Cores is the runner's CPU over the attack, in cores.
func (u Usage) Cores() float64 {
	if u.Wall <= 0 {
		return 0
	}
	return u.CPU.Seconds() / u.Wall.Seconds()
}

// Ledger books what a run costs the runner itself, the load generator:
// its CPU and memory over the whole invocation and over each attack, the
// requests it sent, and what its /proc samplers added.
type Ledger struct {
	started time.Time
	cpu0    time.Duration
	attacks []Usage
	sent    uint64 // every request of every attack
	// overheadCPU and overheadWall weigh the samplers' CPU fractions by
	// the time they ran.
	overheadCPU, overheadWall float64
}

// NewLedger starts booking a run now.
func NewLedger() *Ledger {
	return &Ledger{started: time.Now(), cpu0: cpuTime()}
}

// Watch starts ws for an attack whose warm-up and measured window last d,
// and returns the function that stops them when the attack is over, which
// books it as having sent sent requests, and returns what they recorded
// with what the attack cost the runner.
//
// The watchers stop no earlier than end, the measured window's end (zero
// when there is none to wait for: an interrupted attack). An attack can
// finish before it — its last request answered within the half interval
// the window runs past it — and a window needs a sample at or after its
// end: a Scraper's last scrape, sent at once when a tick is already due,
// would otherwise fall inside the window, and its replica be unread.
//
// Only the /proc Samplers count in the sampler's overhead (their own
// thread's CPU); the metrics Scrapers' cost is in the runner's own CPU.
func (l *Ledger) Watch(ws []Watcher, d time.Duration) (stop func(sent uint64, end time.Time) (map[string]sampler.Series, Usage)) {
	u := Usage{RSSStart: selfRSS()}
	var err error
	u.before, err = sampler.TakeCensus()
	cpu0, wall0 := cpuTime(), time.Now()
	for _, w := range ws {
		w.Start()
	}
	return func(sent uint64, end time.Time) (map[string]sampler.Series, Usage) {
		time.Sleep(time.Until(end))
		series := map[string]sampler.Series{}
		for i, stopped := range stopAll(ws) {
			maps.Copy(series, stopped)
			if s, ok := ws[i].(*sampler.Sampler); ok {
				// The samplers run side by side: their costs add up.
				l.overheadCPU += s.Overhead() * d.Seconds()
			}
		}
		u.CPU, u.Wall, u.RSSEnd = cpuTime()-cpu0, time.Since(wall0), selfRSS()
		var afterErr error
		u.after, afterErr = sampler.TakeCensus()
		u.censusOK = err == nil && afterErr == nil
		l.attacks = append(l.attacks, u)
		l.overheadWall += d.Seconds()
		l.sent += sent
		return series, u
	}
}

// SamplerOverhead is the /proc samplers' own CPU as a fraction of one
// core, over the attacks they watched.
func (l *Ledger) SamplerOverhead() float64 {
	if l.overheadWall <= 0 {
		return 0
	}
	return l.overheadCPU / l.overheadWall
}

// Runner is the load generator's own cost until now: CPU from getrusage
// over the whole invocation (building, seeding and validating included)
// as the mean, the busiest attack's average as the peak, CPU-ms per
// request over the attacks only (what generating the load costs), and
// memory (VmRSS) at the start and end of every attack, the peak from
// getrusage.
func (l *Ledger) Runner() results.ProcessCost {
	wall, cpu := time.Since(l.started), cpuTime()-l.cpu0
	c := results.ProcessCost{Available: true, PID: os.Getpid()}
	if wall > 0 {
		c.CPUMean = cpu.Seconds() / wall.Seconds()
	}
	var attackCPU time.Duration
	for _, u := range l.attacks {
		attackCPU += u.CPU
	}
	c.CPUMsPerRequest = perRequest(float64(attackCPU)/float64(time.Millisecond), l.sent)
	c.CPUSeconds = attackCPU.Seconds()
	var rssSum float64
	for _, u := range l.attacks {
		c.CPUMax = max(c.CPUMax, u.Cores())
		rssSum += float64(u.RSSStart+u.RSSEnd) / 2
	}
	if n := len(l.attacks); n > 0 {
		c.RSSMeanMB = rssSum / float64(n) / results.BytesPerMB
		c.RSSStartMB = float64(l.attacks[0].RSSStart) / results.BytesPerMB
		c.RSSEndMB = float64(l.attacks[n-1].RSSEnd) / results.BytesPerMB
	} else {
		c.RSSStartMB = float64(selfRSS()) / results.BytesPerMB
		c.RSSEndMB, c.RSSMeanMB = c.RSSStartMB, c.RSSStartMB
	}
	c.RSSMaxMB = max(float64(peakRSS())/results.BytesPerMB, c.RSSStartMB, c.RSSEndMB)
	c.CPUMax = max(c.CPUMax, c.CPUMean)
	return c
}

// cpuTime returns the CPU time this process has used so far, all threads,
// user and system (getrusage RUSAGE_SELF; children not included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// selfRSS returns this process's resident memory (VmRSS) in bytes, 0 when
// /proc cannot tell.
func selfRSS() uint64 {
	rss, _ := sampler.ResidentBytes(os.Getpid())
	return rss
}

// peakRSS returns the most resident memory this process has used, in bytes.
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return uint64(ru.Maxrss) << 10 // kilobytes on Linux
}
