package sampler

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"
)

// Sample is one reading of a target.
type Sample struct {
	// At is when the target was read.
	At time.Time
	// CPU is the CPU time used so far, user plus system, all threads
	// (exited ones included). For a tree it also holds the reaped
	// children's time. Only differences between samples mean anything.
	CPU time.Duration
	// CPUBehind is the most CPU can fall short of the true figure at At:
	// a thread on a CPU at the read has its time since the last scheduler
	// tick not yet counted, and a tree's reaped children's time comes in
	// truncated 10 ms ticks.
	CPUBehind time.Duration
	// RSSBytes is the resident memory: VmRSS for a process, the Pss sum
	// for a tree (refreshed every TreeEvery samples).
	RSSBytes uint64
	// Pool is the app's database pool at At, when the sample was scraped
	// from metrics that have it; nil from /proc.
	Pool *Pool
	// Pauses is the app's runtime's pauses at At, when the sample was
	// scraped from metrics that have them; nil from /proc.
	Pauses *Pauses
	// Queue is a broker's queue at At, when the sample was read from the
	// broker (QueueReader); nil otherwise.
	Queue *Queue
}

// Series is everything a Sampler recorded for one target.
type Series struct {
	Target Target
	// Start is when the Sampler started; WriteCSV's times count from it so
	// that the series of one run line up.
	Start time.Time
	// Samples are the successful readings, oldest first.
	Samples []Sample
	// Misses are the times the target could not be read: not yet started,
	// exited, not visible, or its pid taken over by another process.
	Misses []time.Time
}

// Stats summarises a Series over a window.
type Stats struct {
	// CPUMean is the CPU used between the window's first and last sample
	// as a fraction of one core (1.0 = one core busy).
	CPUMean float64
	// CPUMax is the highest CPU rate over any stretch of at least one
	// second between samples in the window; CPUMean when the window spans
	// less than a second.
	CPUMax float64
	// CPUSeconds is the CPU time used between the first and last sample.
	CPUSeconds float64
	// CPUResolution bounds the error of CPUSeconds: each end's reading
	// falls short of the truth by no more than its CPUBehind, so their
	// difference is off by less than the larger of the two. A CPUSeconds
	// under it cannot be told from zero.
	CPUResolution time.Duration
	// RSS statistics over the window's samples; start and end are the
	// first and last sample's values.
	RSSMeanBytes, RSSMaxBytes, RSSStartBytes, RSSEndBytes uint64
	// Samples is the number of samples in the window.
	Samples int
	// Missing is true when the target could not be read at some moment in
	// the window, or not at all: the other numbers cover only the samples
	// there are.
	Missing bool
}

// cpuWindow is the shortest stretch over which a CPU rate is computed: a
// reading can lack up to a scheduler tick per busy thread (Sample.CPUBehind),
// several percent of a 100 ms step.
const cpuWindow = time.Second

// Window returns the statistics of the samples taken from from to to,
// both included. A zero from or to leaves that end open.
func (ser Series) Window(from, to time.Time) Stats {
	var samples []Sample
	for _, s := range ser.Samples {
		if within(s.At, from, to) {
			samples = append(samples, s)
		}
	}
	st := Stats{Samples: len(samples), Missing: len(samples) == 0}
	for _, at := range ser.Misses {
		if within(at, from, to) {
			st.Missing = true
			break
		}
	}
	if len(samples) == 0 {
		return st
	}

	first, last := samples[0], samples[len(samples)-1]
	st.RSSStartBytes, st.RSSEndBytes = first.RSSBytes, last.RSSBytes
	var sum uint64
	for _, s := range samples {
		sum += s.RSSBytes
		st.RSSMaxBytes = max(st.RSSMaxBytes, s.RSSBytes)
	}
	st.RSSMeanBytes = sum / uint64(len(samples))

	st.CPUSeconds = cpuSeconds(first, last)
	st.CPUResolution = max(first.CPUBehind, last.CPUBehind)
	if span := last.At.Sub(first.At); span > 0 {
		st.CPUMean = st.CPUSeconds / span.Seconds()
	}
	st.CPUMax = st.CPUMean
	found := false
	rate, ok := cpuRates(samples)
	for i := range rate {
		if ok[i] && (!found || rate[i] > st.CPUMax) {
			st.CPUMax, found = rate[i], true
		}
	}
	return st
}

// within reports whether at is in the window from to to, both included,
// a zero end being open.
func within(at, from, to time.Time) bool {
	return (from.IsZero() || !at.Before(from)) && (to.IsZero() || !at.After(to))
}

// Around returns the bounds of the shortest run of samples that covers from
// to to: the last sample at or before from and the first at or after to,
// or the series' first and last sample where there is none. A series
// sampled no more often than a window is long then still has two samples
// to take a difference of, which Window(from, to) may not.
func (ser Series) Around(from, to time.Time) (time.Time, time.Time) {
	if len(ser.Samples) == 0 {
		return from, to
	}
	lo, hi := ser.Samples[0].At, ser.Samples[len(ser.Samples)-1].At
	for _, s := range ser.Samples {
		if !s.At.After(from) {
			lo = s.At
		}
		if !s.At.Before(to) {
			hi = s.At
			break
		}
	}
	return lo, hi
}

// PoolChange returns how the pool's counters grew between the first and
// the last sample from from to to (both included, a zero end open) that
// have a pool, with the pool's size at the last; false without two such
// samples. Scraped once a second, a short window may hold fewer: pass the
// bounds Around gives.
func (ser Series) PoolChange(from, to time.Time) (Pool, bool) {
	var first, last *Pool
	for _, s := range ser.Samples {
		if s.Pool == nil || !within(s.At, from, to) {
			continue
		}
		if first == nil {
			first = s.Pool
		}
		last = s.Pool
	}
	if first == nil || first == last || last.Acquires < first.Acquires || last.AcquireWait < first.AcquireWait {
		// A counter that went down is a restarted app: no difference.
		return Pool{}, false
	}
	return Pool{
		Acquires:    last.Acquires - first.Acquires,
		AcquireWait: last.AcquireWait - first.AcquireWait,
		MaxConns:    last.MaxConns,
	}, true
}

// WriteCSV writes the samples as CSV with a header: t_seconds (since
// Start), cpu_seconds (Sample.CPU), rss_bytes and
// cpu_fraction_over_last_second (the CPU rate over the shortest stretch of
// at least one second ending at the sample; empty during the first
// second).
func (ser Series) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"t_seconds", "cpu_seconds", "rss_bytes", "cpu_fraction_over_last_second"}); err != nil {
		return err
	}
	start := ser.Start
	if start.IsZero() && len(ser.Samples) > 0 {
		start = ser.Samples[0].At
	}
	rate, ok := cpuRates(ser.Samples)
	for i, s := range ser.Samples {
		r := ""
		if ok[i] {
			r = strconv.FormatFloat(rate[i], 'f', 4, 64)
		}
		if err := cw.Write([]string{
			strconv.FormatFloat(s.At.Sub(start).Seconds(), 'f', 3, 64),
			strconv.FormatFloat(s.CPU.Seconds(), 'f', 9, 64),
			strconv.FormatUint(s.RSSBytes, 10),
			r,
		}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cpuRates returns, per sample, the CPU rate over the shortest stretch of
// at least cpuWindow ending at that sample; ok is false while no such
// stretch exists yet.
func cpuRates(samples []Sample) (rate []float64, ok []bool) {
	rate, ok = make([]float64, len(samples)), make([]bool, len(samples))
	j := 0
	for i, s := range samples {
		for j+1 < i && s.At.Sub(samples[j+1].At) >= cpuWindow {
			j++
		}
		if d := s.At.Sub(samples[j].At); d >= cpuWindow {
			rate[i], ok[i] = cpuSeconds(samples[j], s)/d.Seconds(), true
		}
	}
	return rate, ok
}

// cpuSeconds is the CPU time between two samples. A tree's count can drop
// when a process leaves it (reparented away), or by the fraction of a tick
// an exited process's time loses when its parent reaps it; that reads as
// zero rather than as negative time.
func cpuSeconds(a, b Sample) float64 {
	if b.CPU < a.CPU {
		return 0
	}
	return (b.CPU - a.CPU).Seconds()
}
