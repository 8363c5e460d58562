package load_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/load"
)

func TestWindow(t *testing.T) {
	// Requests 10 to 13 of an attack at 2 req/s: a 2 s window.
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	w := load.NewWindow(start, 2*time.Second, 10, 4)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	results := []*vegeta.Result{
		// The warm-up's last request: ignored, however late it answers.
		{Seq: 9, Timestamp: at(-250 * time.Millisecond), Code: 200, Latency: 5 * time.Second},
		// The window: four requests, one failing by status, one by content.
		{Seq: 10, Timestamp: at(250 * time.Millisecond), Code: 200, Latency: 10 * time.Millisecond, BytesIn: 100, BytesOut: 10},
		{Seq: 11, Timestamp: at(750 * time.Millisecond), Code: 303, Latency: 20 * time.Millisecond, BytesIn: 0, BytesOut: 30},
		{Seq: 12, Timestamp: at(1250 * time.Millisecond), Code: 500, Latency: 30 * time.Millisecond, BytesIn: 200, Error: "500 Internal Server Error"},
		// Sent 200 ms late by a busy machine, answered 1 s after that:
		// still the window's, and its answer extends the window.
		{Seq: 13, Timestamp: at(1950 * time.Millisecond), Code: 200, Latency: time.Second, BytesIn: 100, Error: "GraphQL error INTERNAL"},
		// After the window (none in this attack, but a window does not know).
		{Seq: 14, Timestamp: at(2100 * time.Millisecond), Code: 200, Latency: time.Millisecond},
	}
	var in []bool
	for _, r := range results {
		in = append(in, w.Add(r))
	}
	if d := cmp.Diff([]bool{false, true, true, true, true, false}, in); d != "" {
		t.Errorf("Add (-want +got):\n%s", d)
	}
	s := w.Summary()
	if s.Requests != 4 || s.Successes != 2 {
		t.Errorf("requests %d, successes %d; want 4, 2", s.Requests, s.Successes)
	}
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// Sent from 0.25 s (when the first was due) to 1.95 s, plus the last
	// one's 0.5 s interval.
	near("AchievedRate", s.AchievedRate, 4/2.2)
	// The last answer came at 2.95 s: 2.7 s after the first was due.
	near("Throughput", s.Throughput, 2/2.7)
	near("SuccessRatio", s.SuccessRatio, 0.5)
	near("BytesInMean", s.BytesInMean, 100)
	near("BytesOutMean", s.BytesOutMean, 10)
	if s.Wait != 500*time.Millisecond {
		t.Errorf("Wait = %v, want 500ms", s.Wait)
	}
	if s.LatencyMax != time.Second || s.LatencyMean != 265*time.Millisecond {
		t.Errorf("latency max %v mean %v, want 1s and 265ms", s.LatencyMax, s.LatencyMean)
	}
	if s.P50 < 10*time.Millisecond || s.P50 > 30*time.Millisecond || s.P99 < 30*time.Millisecond || s.P99 > time.Second {
		t.Errorf("p50 %v, p99 %v out of the latencies' range", s.P50, s.P99)
	}
	if d := cmp.Diff(map[string]int{"200": 2, "303": 1, "500": 1}, s.StatusCodes); d != "" {
		t.Errorf("StatusCodes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"500 Internal Server Error", "GraphQL error INTERNAL"}, s.Errors); d != "" {
		t.Errorf("Errors (-want +got):\n%s", d)
	}
}

func TestWindowOnSchedule(t *testing.T) {
	// A server that keeps up with 100 req/s for 1 s: the achieved rate and
	// the throughput are the target.
	start := time.Now()
	w := load.NewWindow(start, time.Second, 0, 100)
	for i := range uint64(100) {
		sent := start.Add(5*time.Millisecond + time.Duration(i)*10*time.Millisecond)
		w.Add(&vegeta.Result{Seq: i, Timestamp: sent, Code: 200, Latency: 3 * time.Millisecond})
	}
	s := w.Summary()
	if math.Abs(s.AchievedRate-100) > 1e-6 || math.Abs(s.Throughput-100) > 1e-6 || s.Wait != 0 {
		t.Errorf("achieved %v, throughput %v, wait %v; want 100, 100, 0", s.AchievedRate, s.Throughput, s.Wait)
	}
}

func TestWindowLateGenerator(t *testing.T) {
	// 10 requests due every 100 ms from 50 ms, each answered in 5 ms.
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	due := func(i int) time.Time { return start.Add(50*time.Millisecond + time.Duration(i)*100*time.Millisecond) }
	for _, tc := range []struct {
		name string
		sent func(i int) time.Time
		// rate is both the achieved rate and the throughput.
		rate float64
	}{
		// The first requests leave 300 ms late in a burst, then the
		// schedule is kept: all ten were sent within the window's second.
		{"stalls then catches up", func(i int) time.Time { return due(max(i, 3)) }, 10},
		// Every request leaves 250 ms late: the last one at 1.2 s.
		{"late throughout", func(i int) time.Time { return due(i).Add(250 * time.Millisecond) }, 10 / 1.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := load.NewWindow(start, time.Second, 0, 10)
			for i := range 10 {
				w.Add(&vegeta.Result{Seq: uint64(i), Timestamp: tc.sent(i), Code: 200, Latency: 5 * time.Millisecond})
			}
			s := w.Summary()
			if math.Abs(s.AchievedRate-tc.rate) > 1e-9 || math.Abs(s.Throughput-tc.rate) > 1e-9 {
				t.Errorf("achieved %v, throughput %v; want %v for both", s.AchievedRate, s.Throughput, tc.rate)
			}
		})
	}
}

func TestWindowKeepsFirstErrors(t *testing.T) {
	start := time.Now()
	w := load.NewWindow(start, time.Second, 0, 3*load.MaxErrors)
	for i := range 3 * load.MaxErrors {
		w.Add(&vegeta.Result{Seq: uint64(i), Timestamp: start, Code: 0, Error: string(rune('a' + i%(2*load.MaxErrors)))})
	}
	s := w.Summary()
	if len(s.Errors) != load.MaxErrors || s.Errors[0] != "a" {
		t.Errorf("errors %q, want the first %d distinct", s.Errors, load.MaxErrors)
	}
	if s.Successes != 0 || s.Throughput != 0 {
		t.Errorf("status 0 counted as success")
	}
}

func TestEmptyWindow(t *testing.T) {
	s := load.NewWindow(time.Now(), time.Second, 0, 10).Summary()
	if s.Requests != 0 || s.AchievedRate != 0 || s.SuccessRatio != 0 || s.StatusCodes == nil {
		t.Errorf("empty window summary %+v", s)
	}
}

func TestPacer(t *testing.T) {
	tests := []struct {
		rate float64
		d    time.Duration
		hits uint64
	}{
		{100, 18 * time.Second, 1800},
		{5, 3 * time.Second, 15},
		{2.5, 4 * time.Second, 10},
	}
	for _, tt := range tests {
		p := load.NewPacer(tt.rate, tt.d)
		if p.Hits != tt.hits {
			t.Errorf("NewPacer(%v, %v).Hits = %d, want %d", tt.rate, tt.d, p.Hits, tt.hits)
		}
		if got := p.Rate(0); math.Abs(got-tt.rate) > 1e-9 {
			t.Errorf("NewPacer(%v).Rate = %v", tt.rate, got)
		}
		if _, stop := p.Pace(tt.d, p.Hits); !stop {
			t.Errorf("NewPacer(%v, %v) goes on after %d hits", tt.rate, tt.d, p.Hits)
		}
		if _, stop := p.Pace(0, 0); stop {
			t.Errorf("NewPacer(%v, %v) stops at once", tt.rate, tt.d)
		}
	}
}
