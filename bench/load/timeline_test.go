package load_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/load"
)

func TestTimeline(t *testing.T) {
	// Requests 50 to 249 of an attack at 100 req/s: a 2 s window whose
	// request 50+i is due at (i+½)·10 ms.
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	w := load.NewWindow(start, 2*time.Second, 50, 200)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	// Answers come in any order: the first second's, from the slowest
	// (100 ms) to the fastest (1 ms), all sent late, as a stalled load
	// generator sends them; they still count in the second they were due in.
	for i := 99; i >= 0; i-- {
		w.Add(&vegeta.Result{Seq: uint64(50 + i), Timestamp: start.Add(1500 * time.Millisecond), Code: 200, Latency: ms(i + 1)})
	}
	// The second second: 7 ms each, but one answer takes a second and
	// three fail.
	for i := 100; i < 200; i++ {
		r := &vegeta.Result{Seq: uint64(50 + i), Timestamp: start.Add(ms(10 * i)), Code: 200, Latency: ms(7)}
		switch i {
		case 100:
			r.Latency = time.Second
		case 120, 150, 199:
			r.Code = 500
		}
		w.Add(r)
	}
	// The warm-up's last request: not the window's.
	w.Add(&vegeta.Result{Seq: 49, Timestamp: start, Code: 200, Latency: time.Hour})

	want := []load.Second{
		// Nearest rank: the 50th and the 99th of the 100 latencies.
		{At: 0, Requests: 100, Successes: 100, P50: ms(50), P99: ms(99)},
		// 99 of the 100 latencies are 7 ms: the slow one is only the max.
		{At: time.Second, Requests: 100, Successes: 97, P50: ms(7), P99: ms(7)},
	}
	if d := cmp.Diff(want, w.Summary().Timeline); d != "" {
		t.Errorf("Timeline (-want +got):\n%s", d)
	}
}

func TestTimelineSeconds(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		// A window of count requests from sequence number 0 over d.
		d     time.Duration
		count uint64
		want  []load.Second
	}{
		{
			// Due at 0.2, 0.6 and 1.0 s: the last one opens the second
			// second, which the window only begins.
			name: "fractional rate", d: 1200 * time.Millisecond, count: 3,
			want: []load.Second{
				{At: 0, Requests: 2, Successes: 2, P50: 10 * time.Millisecond, P99: 20 * time.Millisecond},
				{At: time.Second, Requests: 1, Successes: 1, P50: 30 * time.Millisecond, P99: 30 * time.Millisecond},
			},
		},
		{
			// One request due at 1.5 s: the first second has none.
			name: "empty second", d: 2 * time.Second, count: 1,
			want: []load.Second{
				{At: 0},
				{At: time.Second, Requests: 1, Successes: 1, P50: 10 * time.Millisecond, P99: 10 * time.Millisecond},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := load.NewWindow(start, tc.d, 0, tc.count)
			for i := range tc.count {
				w.Add(&vegeta.Result{Seq: i, Timestamp: start, Code: 200, Latency: time.Duration(i+1) * 10 * time.Millisecond})
			}
			if d := cmp.Diff(tc.want, w.Summary().Timeline); d != "" {
				t.Errorf("Timeline (-want +got):\n%s", d)
			}
		})
	}
}
