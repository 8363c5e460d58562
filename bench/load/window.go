package load

import (
	"math"
	"slices"
	"strconv"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// MaxErrors is how many distinct error texts a Window keeps: the first
// ones say what went wrong, the thousandth adds nothing.
const MaxErrors = 10

// Window aggregates the measured part of an attack: the requests with
// sequence numbers First to First+Count-1, i.e. those the schedule places
// after the warm-up. Membership goes by place in the schedule, not by send
// time, so a request a busy machine sends a little late still belongs to
// the part of the run it was scheduled in, and every window holds exactly
// rate × duration requests. Answers that arrive after the window's end
// still count for the requests sent inside it.
//
// A closed loop's window (see Options.Clients) has no schedule: it holds
// the requests its clients sent after the warm-up, from the first one the
// pacer released then (First), and Count is known only at the end; its
// seconds are those the requests were sent in.
//
// A request succeeds when its status is 2xx or 3xx and nothing marked the
// result as wrong (Result.Error empty): a GraphQL answer carrying errors, or
// a page of the wrong kind, is a failure even with status 200.
type Window struct {
	// Start and End are the scheduled bounds of the window: the samples of
	// CPU and memory taken between them belong to it. Its Count requests
	// are due one interval ((End-Start)/Count) apart, the first half an
	// interval after Start, so no bound falls on a request.
	Start, End time.Time
	// First and Count select the requests by sequence number.
	First, Count uint64
	// closed is true for a closed loop's window.
	closed bool

	requests, successes uint64
	// codes counts the status codes; the text keys of Summary are made
	// once there, not per request.
	codes             map[uint16]int
	errors            []string
	latency           vegeta.LatencyMetrics
	seconds           []bucket
	bytesIn, bytesOut uint64
	// lastSent is when the last request left; lastEnd is when the last
	// answer arrived.
	lastSent, lastEnd time.Time
}

// NewWindow returns an empty window of count requests from sequence number
// first, scheduled from start for d.
func NewWindow(start time.Time, d time.Duration, first, count uint64) *Window {
	return &Window{
		Start: start, End: start.Add(d), First: first, Count: count,
		codes: map[uint16]int{}, seconds: newTimeline(d),
	}
}

// In reports whether the request with sequence number seq belongs to the
// window.
func (w *Window) In(seq uint64) bool {
	if w.closed {
		return w.First != math.MaxUint64 && seq >= w.First
	}
	return seq >= w.First && seq-w.First < w.Count
}

// open starts a closed loop's window at request first, once.
func (w *Window) open(first uint64) {
	if w.closed && w.First == math.MaxUint64 {
		w.First = first
	}
}

// Closed reports whether the window is a closed loop's.
func (w *Window) Closed() bool { return w.closed }

// Add counts r if its request belongs to the window and reports whether it
// did.
func (w *Window) Add(r *vegeta.Result) bool {
	if !w.In(r.Seq) {
		return false
	}
	w.requests++
	w.codes[r.Code]++
	w.bytesIn += r.BytesIn
	w.bytesOut += r.BytesOut
	w.latency.Add(r.Latency)
	if r.Timestamp.After(w.lastSent) {
		w.lastSent = r.Timestamp
	}
	if end := r.End(); end.After(w.lastEnd) {
		w.lastEnd = end
	}
	ok := Succeeded(r)
	if ok {
		w.successes++
	}
	w.addToTimeline(r, ok)
	if r.Error != "" && len(w.errors) < MaxErrors && !slices.Contains(w.errors, r.Error) {
		w.errors = append(w.errors, r.Error)
	}
	return true
}

// Succeeded reports whether r counts as a success: status 2xx or 3xx and no
// error recorded.
func Succeeded(r *vegeta.Result) bool {
	return r.Code >= 200 && r.Code < 400 && r.Error == ""
}

// Summary is what a Window measured.
type Summary struct {
	Requests  uint64
	Successes uint64
	// AchievedRate is the window's requests divided by the sending time:
	// from when the first was due until the last was sent, plus one
	// interval (the last request's share), and never less than the
	// window's scheduled length. It is the target rate when the load
	// generator kept its schedule, less when it fell behind and never made
	// up for it, and never more: a generator that stalls and then catches
	// up sends a burst, not a higher rate.
	AchievedRate float64
	// Throughput is the successful answers per second over the later of
	// the sending time and the time from when the first request was due
	// until the last answer: a server that falls behind answers late and
	// gets a throughput under the rate. Both spans start from the schedule,
	// not from the first send, so a late first request cannot shorten them
	// and neither figure can exceed the target rate.
	Throughput   float64
	SuccessRatio float64
	// Wait is how much the last answer extended the window beyond the
	// sending time.
	Wait        time.Duration
	StatusCodes map[string]int
	// Errors are the first distinct error texts (at most MaxErrors).
	Errors []string
	// Timeline is the window second by second, one entry per second begun.
	Timeline []Second

	LatencyMean, P50, P90, P95, P99, LatencyMax time.Duration

	BytesInMean, BytesOutMean float64
}

// Summary computes the window's numbers. It may be called more than once.
func (w *Window) Summary() Summary {
	s := Summary{
		Requests:    w.requests,
		Successes:   w.successes,
		StatusCodes: make(map[string]int, len(w.codes)),
		Errors:      append([]string{}, w.errors...),
		Timeline:    w.timeline(),
	}
	for code, n := range w.codes {
		s.StatusCodes[strconv.Itoa(int(code))] = n
	}
	if w.requests == 0 {
		return s
	}
	sending, elapsed := w.spans()
	s.Wait = elapsed - sending
	if sending > 0 {
		s.AchievedRate = float64(w.requests) / sending.Seconds()
		s.Throughput = float64(w.successes) / elapsed.Seconds()
	}
	n := float64(w.requests)
	s.SuccessRatio = float64(w.successes) / n
	s.BytesInMean = float64(w.bytesIn) / n
	s.BytesOutMean = float64(w.bytesOut) / n
	s.LatencyMean = time.Duration(float64(w.latency.Total) / n)
	s.P50 = w.latency.Quantile(0.50)
	s.P90 = w.latency.Quantile(0.90)
	s.P95 = w.latency.Quantile(0.95)
	s.P99 = w.latency.Quantile(0.99)
	s.LatencyMax = w.latency.Max
	return s
}

// spans returns the window's sending time and the time until its last
// answer (see Summary.AchievedRate and Summary.Throughput). A closed loop
// sends for the whole window and never after it, so its sending time is
// the window's length and its answers are counted from the window's start.
func (w *Window) spans() (sending, elapsed time.Duration) {
	if w.closed {
		sending = w.End.Sub(w.Start)
		return sending, max(sending, w.lastEnd.Sub(w.Start))
	}
	var interval time.Duration
	if w.Count > 0 {
		interval = w.End.Sub(w.Start) / time.Duration(w.Count)
	}
	// Requests are never sent before they are due, so on schedule the last
	// one leaves at End - interval/2 and sending is exactly End - Start.
	due := w.Start.Add(interval / 2)
	sending = max(w.End.Sub(w.Start), w.lastSent.Sub(due)+interval)
	return sending, max(sending, w.lastEnd.Sub(due))
}

// WindowOf returns the measured window, with nothing added yet, of the
// schedule of rate requests per second for warmup+duration that began at
// start: the window an attack with these options measures, whether one
// runner sent it or shards shared it. bench merge replays the shards' raw
// results into it.
func WindowOf(start time.Time, rate float64, warmup, duration time.Duration) *Window {
	return schedule{all: NewPacer(rate, warmup+duration), began: start}.window(rate, warmup)
}
