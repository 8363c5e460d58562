package load

import (
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Second is one second of a window's schedule: the requests due in it (a
// closed loop's: sent in it), how many of them succeeded, and their
// latencies. Requests belong to the second
// they were due in, not the one they were sent or answered in, so a queue
// shows in the seconds it built up in and the seconds add up to the window.
type Second struct {
	// At is the second's start, from the window's Start.
	At                  time.Duration
	Requests, Successes int
	// P50 and P99 are exact: nearest-rank percentiles of every latency of
	// the second (zero for a second without requests).
	P50, P99 time.Duration
}

// bucket collects one second of a window.
type bucket struct {
	successes int
	latencies []time.Duration
}

// newTimeline returns the buckets of a window of length d: one per second
// begun.
func newTimeline(d time.Duration) []bucket {
	return make([]bucket, max(1, (d+time.Second-1)/time.Second))
}

// second returns the index of the second the request of r was due in:
// request First+i is due (i+½) intervals after Start. A closed loop's
// requests are due when they are sent: theirs is the second r was sent in.
func (w *Window) second(r *vegeta.Result) int {
	if w.closed {
		return min(max(int(r.Timestamp.Sub(w.Start)/time.Second), 0), len(w.seconds)-1)
	}
	interval := w.End.Sub(w.Start) / time.Duration(w.Count)
	due := time.Duration(2*(r.Seq-w.First)+1) * interval / 2
	return min(int(due/time.Second), len(w.seconds)-1)
}

// addToTimeline counts a result of the window in the second it was due in.
func (w *Window) addToTimeline(r *vegeta.Result, ok bool) {
	b := &w.seconds[w.second(r)]
	b.latencies = append(b.latencies, r.Latency)
	if ok {
		b.successes++
	}
}

// timeline summarizes the buckets, sorting each one's latencies in place.
func (w *Window) timeline() []Second {
	out := make([]Second, len(w.seconds))
	for i := range w.seconds {
		b := &w.seconds[i]
		slices.Sort(b.latencies)
		out[i] = Second{
			At:        time.Duration(i) * time.Second,
			Requests:  len(b.latencies),
			Successes: b.successes,
			P50:       nearestRank(b.latencies, 50),
			P99:       nearestRank(b.latencies, 99),
		}
	}
	return out
}

// nearestRank is the p-th percentile of sorted by the nearest-rank method:
// the smallest value with at least p% of the values at or below it.
func nearestRank(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ⌈p·n/100⌉, in integers to stay exact
	return sorted[max(rank, 1)-1]
}
