package sampler

import (
	"math"
	"slices"
	"time"
)

// The metrics of an app's runtime pauses a Scraper reads. Go: the
// runtime's stop-the-world pauses for the collector as a histogram
// (runtime/metrics' /sched/pauses/total/gc:seconds, which client_golang
// exports when asked) and their exact total (the Go collector's summary,
// whose histogram sum is estimated from the buckets). Node: prom-client's
// garbage-collection histogram (every kind) and its event-loop delays,
// which it measures with perf_hooks.monitorEventLoopDelay and resets at
// every scrape.
const (
	metricGoGCPauses    = "go_sched_pauses_total_gc_seconds"
	metricGoGCDuration  = "go_gc_duration_seconds"
	metricNodeGC        = "nodejs_gc_duration_seconds"
	metricLoopDelayMin  = "nodejs_eventloop_lag_min_seconds"
	metricLoopDelayMean = "nodejs_eventloop_lag_mean_seconds"
	metricLoopDelayP99  = "nodejs_eventloop_lag_p99_seconds"
	metricLoopDelayMax  = "nodejs_eventloop_lag_max_seconds"
)

// Pauses is what an app's runtime says of its pauses at one scrape.
type Pauses struct {
	// GC is the garbage collector's pauses since the process started;
	// nil when the metrics have none.
	GC *Histogram
	// EventLoop is Node's event-loop delay since the previous scrape
	// (prom-client resets it at each); nil for other runtimes, and when no
	// turn of the loop was timed since.
	EventLoop *LoopDelay
}

// Histogram is a cumulative histogram of durations: counts only grow.
type Histogram struct {
	Count uint64
	Sum   time.Duration
	// Buckets are the upper bounds, ascending, with the observations at or
	// under each; the last is +Inf.
	Buckets []Bucket
}

// Bucket is one bucket of a Histogram.
type Bucket struct {
	UpperBound time.Duration // math.MaxInt64 for +Inf
	Count      uint64
}

// LoopDelay is what Node's event-loop timer measured over a span: the time
// between its ticks, which is the timer's interval (10 ms by default) plus
// however long the loop was held when a tick was due.
type LoopDelay struct {
	Min, Mean, P99, Max time.Duration
}

// PauseChange is what the runtime paused between two scrapes (see
// Series.PausesBetween).
type PauseChange struct {
	// Span is the time between the two scrapes.
	Span time.Duration
	// GC is how the collector's histogram grew; nil when the scrapes had
	// none, or it went down (a restarted process).
	GC *Histogram
	// EventLoop are the event-loop delays of each scrape after the first,
	// each over the span since the one before.
	EventLoop []LoopDelay
}

// PausesBetween returns the runtime's pauses between the first and the
// last sample from from to to (both included, a zero end open) that have
// them; false without two such samples. Scraped once a second, a short
// window may hold fewer: pass the bounds Around gives.
func (ser Series) PausesBetween(from, to time.Time) (PauseChange, bool) {
	var first, last *Sample
	var loop []LoopDelay
	for i := range ser.Samples {
		s := &ser.Samples[i]
		if s.Pauses == nil || !within(s.At, from, to) {
			continue
		}
		if first == nil {
			first = s
		} else if s.Pauses.EventLoop != nil {
			loop = append(loop, *s.Pauses.EventLoop)
		}
		last = s
	}
	if first == nil || first == last {
		return PauseChange{}, false
	}
	c := PauseChange{Span: last.At.Sub(first.At), EventLoop: loop}
	if a, b := first.Pauses.GC, last.Pauses.GC; a != nil && b != nil {
		c.GC = b.minus(a)
	}
	return c, c.GC != nil || len(c.EventLoop) > 0
}

// minus is h less an earlier reading of the same histogram, nil when the
// two do not share their buckets or a count went down.
func (h *Histogram) minus(earlier *Histogram) *Histogram {
	if len(h.Buckets) != len(earlier.Buckets) || h.Count < earlier.Count || h.Sum < earlier.Sum {
		return nil
	}
	d := &Histogram{Count: h.Count - earlier.Count, Sum: h.Sum - earlier.Sum, Buckets: make([]Bucket, len(h.Buckets))}
	for i, b := range h.Buckets {
		e := earlier.Buckets[i]
		if b.UpperBound != e.UpperBound || b.Count < e.Count {
			return nil
		}
		d.Buckets[i] = Bucket{UpperBound: b.UpperBound, Count: b.Count - e.Count}
	}
	return d
}

// Quantile is the q-quantile of h's observations, interpolated linearly
// within its bucket as Prometheus's histogram_quantile does (the lowest
// bucket from zero; in the +Inf bucket, the highest finite bound); zero
// when h holds none.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h == nil || h.Count == 0 || len(h.Buckets) == 0 {
		return 0
	}
	rank := q * float64(h.Count)
	i, _ := slices.BinarySearchFunc(h.Buckets, rank, func(b Bucket, r float64) int {
		if float64(b.Count) < r {
			return -1
		}
		return 1
	})
	i = min(i, len(h.Buckets)-1)
	var lower time.Duration
	var below uint64
	if i > 0 {
		lower, below = h.Buckets[i-1].UpperBound, h.Buckets[i-1].Count
	}
	b := h.Buckets[i]
	if b.UpperBound == math.MaxInt64 {
		return lower
	}
	in := b.Count - below
	if in == 0 {
		return b.UpperBound
	}
	return lower + time.Duration(float64(b.UpperBound-lower)*(rank-float64(below))/float64(in))
}

// pauses reads the runtime's pauses from the metrics; nil when they have
// none.
func (m metrics) pauses() *Pauses {
	var p Pauses
	if h, ok := m.histogram(metricGoGCPauses); ok {
		// The histogram's sum is estimated from its buckets; the
		// summary's is the runtime's own total.
		if sum, ok := m.summarySum(metricGoGCDuration); ok {
			h.Sum = sum
		}
		p.GC = h
	} else if h, ok := m.histogram(metricNodeGC); ok {
		p.GC = h
	}
	p.EventLoop = m.loopDelay()
	if p.GC == nil && p.EventLoop == nil {
		return nil
	}
	return &p
}

// histogram is the named histogram family, its series (one per label set:
// Node's kinds of collection) added up bucket by bucket; false when it is
// absent or its series' buckets differ.
func (m metrics) histogram(name string) (*Histogram, bool) {
	f, ok := m[name]
	if !ok || len(f.GetMetric()) == 0 {
		return nil, false
	}
	var h *Histogram
	for _, x := range f.GetMetric() {
		dh := x.GetHistogram()
		if dh == nil {
			return nil, false
		}
		bs := dh.GetBucket()
		if h == nil {
			h = &Histogram{Buckets: make([]Bucket, len(bs)+1)}
			for i, b := range bs {
				h.Buckets[i].UpperBound = seconds(b.GetUpperBound())
			}
			h.Buckets[len(bs)].UpperBound = math.MaxInt64
		}
		if len(bs)+1 != len(h.Buckets) {
			return nil, false
		}
		for i, b := range bs {
			if seconds(b.GetUpperBound()) != h.Buckets[i].UpperBound {
				return nil, false
			}
			h.Buckets[i].Count += b.GetCumulativeCount()
		}
		h.Buckets[len(bs)].Count += dh.GetSampleCount()
		h.Count += dh.GetSampleCount()
		h.Sum += seconds(dh.GetSampleSum())
	}
	// The text format may leave out the +Inf bucket's line; the count is
	// its value either way.
	if n := len(h.Buckets); n > 1 && h.Buckets[n-2].UpperBound == math.MaxInt64 {
		h.Buckets = h.Buckets[:n-1]
	}
	return h, true
}

// summarySum is the named summary's sum over its series.
func (m metrics) summarySum(name string) (time.Duration, bool) {
	f, ok := m[name]
	if !ok || len(f.GetMetric()) == 0 {
		return 0, false
	}
	var sum time.Duration
	for _, x := range f.GetMetric() {
		s := x.GetSummary()
		if s == nil {
			return 0, false
		}
		sum += seconds(s.GetSampleSum())
	}
	return sum, true
}

// loopDelay is Node's event-loop delay since the previous scrape; nil
// when the metrics have none, or no turn was timed (the histogram's
// minimum is then larger than its maximum, its mean not a number).
func (m metrics) loopDelay() *LoopDelay {
	lo, ok1 := m.value(metricLoopDelayMin)
	mean, ok2 := m.value(metricLoopDelayMean)
	p99, ok3 := m.value(metricLoopDelayP99)
	hi, ok4 := m.value(metricLoopDelayMax)
	if !ok1 || !ok2 || !ok3 || !ok4 || math.IsNaN(mean) || lo > hi || hi <= 0 {
		return nil
	}
	return &LoopDelay{Min: seconds(lo), Mean: seconds(mean), P99: seconds(p99), Max: seconds(hi)}
}

// seconds converts a metric's seconds into a Duration, +Inf into
// math.MaxInt64.
func seconds(s float64) time.Duration {
	if math.IsInf(s, 1) || s*float64(time.Second) >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}
