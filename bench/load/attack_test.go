package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"

	"crudbench/bench/load"
)

// server counts the requests it answers.
func server(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "hello from "+r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestAttack(t *testing.T) {
	srv, served := server(t)
	targeter := alternate(srv.URL)
	var raw bytes.Buffer
	var progress atomic.Int64
	out, err := load.Attack(context.Background(), targeter, load.Options{
		Name:           "test",
		Rate:           50,
		Warmup:         400 * time.Millisecond,
		Duration:       time.Second,
		Timeout:        5 * time.Second,
		MaxConnections: 4,
		Observe: func(r *vegeta.Result) {
			if strings.HasSuffix(r.URL, "/wrong") {
				r.Error = "wrong answer"
			}
		},
		Raw:      &raw,
		Progress: func(load.Progress) { progress.Add(1) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// 50 req/s: 20 warm-up requests, then exactly 50 measured.
	if out.Sent != 70 || out.Requests != 50 {
		t.Errorf("sent %d, measured %d; want 70 and 50", out.Sent, out.Requests)
	}
	// Sending times jitter by a few ms on a busy machine.
	if out.AchievedRate < 45 || out.AchievedRate > 55 {
		t.Errorf("achieved %v req/s, want 50", out.AchievedRate)
	}
	if out.Successes != 25 || out.SuccessRatio != 0.5 {
		t.Errorf("successes %d (%v), want 25 (0.5): Observe marks every other answer wrong", out.Successes, out.SuccessRatio)
	}
	if served.Load() != 70 {
		t.Errorf("the server answered %d requests, want 70", served.Load())
	}
	if out.Window.First != 20 || out.Window.Count != 50 {
		t.Errorf("window of requests %d+%d, want 20+50", out.Window.First, out.Window.Count)
	}
	if progress.Load() < 3 {
		t.Errorf("progress reported %d times in 1.4 s, want about 5", progress.Load())
	}
	if got := out.Window.End.Sub(out.Window.Start); got != time.Second {
		t.Errorf("window lasts %v, want 1s", got)
	}
	if tl := out.Timeline; len(tl) != 1 || tl[0].Requests != 50 || tl[0].Successes != 25 {
		t.Errorf("timeline %+v, want one second of 50 requests, 25 successes", tl)
	}

	checkRaw(t, &raw, out.Window.Count)
}

// alternate returns a targeter that asks for /ok and /wrong in turn.
func alternate(base string) vegeta.Targeter {
	var i atomic.Int64
	return func(tgt *vegeta.Target) error {
		path := "/ok"
		if i.Add(1)%2 == 0 {
			path = "/wrong"
		}
		*tgt = vegeta.Target{Method: http.MethodGet, URL: base + path}
		return nil
	}
}

// checkRaw checks that raw is vegeta's own encoding of a measured window
// of count results, one of them an error, without bodies.
func checkRaw(t *testing.T, raw io.Reader, count uint64) {
	t.Helper()
	dec := vegeta.DecoderFor(raw)
	if dec == nil {
		t.Fatal("vegeta cannot read the raw results")
	}
	// Results come as they complete: the window's sequence numbers, from
	// 0, each once, in any order.
	var m vegeta.Metrics
	seen := map[uint64]bool{}
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		if r.Body != nil || r.Seq >= count || seen[r.Seq] || r.Attack != "test" {
			t.Errorf("raw result %+v: want no body, a sequence number of its own under %d, attack name", r, count)
		}
		seen[r.Seq] = true
		m.Add(&r)
	}
	m.Close()
	if m.Requests != count || len(m.Errors) != 1 {
		t.Errorf("raw file holds %d results with errors %q, want %d and [wrong answer]", m.Requests, m.Errors, count)
	}
}

// TestRawFilePlots feeds a raw file to vegeta's own decoder and plotter, as
// `vegeta plot` does, and counts the points of the chart it writes: one per
// measured request, successes and failures alike.
func TestRawFilePlots(t *testing.T) {
	srv, _ := server(t)
	var i atomic.Int64
	var raw bytes.Buffer
	out, err := load.Attack(context.Background(), vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL}), load.Options{
		Name: "plot", Rate: 40, Warmup: 500 * time.Millisecond, Duration: time.Second,
		Timeout: 5 * time.Second, MaxConnections: 4, Raw: &raw,
		// Failures are plotted as a series of their own.
		Observe: func(r *vegeta.Result) {
			if i.Add(1)%3 == 0 {
				r.Error = "every third"
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Window.First == 0 {
		t.Fatalf("the window starts at request 0: the warm-up is missing and the test shows nothing")
	}

	dec := vegeta.DecoderFor(&raw)
	if dec == nil {
		t.Fatal("vegeta cannot read the raw results")
	}
	// The settings of `vegeta plot`'s command line.
	p := plot.New(plot.Title("raw"), plot.Downsample(4000), plot.Label(plot.ErrorLabeler))
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		if err := p.Add(&r); err != nil {
			t.Fatalf("plot: %v", err)
		}
	}
	p.Close()
	var page bytes.Buffer
	if _, err := p.WriteTo(&page); err != nil {
		t.Fatal(err)
	}
	if got := plotPoints(t, page.String()); got != out.Requests {
		t.Errorf("the plot holds %d points, want one per measured request: %d", got, out.Requests)
	}
}

// plotPoints counts the values in the data a vegeta plot page embeds: rows
// of [seconds, series 1, series 2, ...], null where a row has no value
// for a series.
func plotPoints(t *testing.T, page string) uint64 {
	t.Helper()
	const start = "const rowData = "
	_, data, ok := strings.Cut(page, start)
	data, _, ok2 := strings.Cut(data, ";\n")
	if !ok || !ok2 {
		t.Fatalf("no %q in the plot page", start)
	}
	var rows [][]*float64
	if err := json.Unmarshal([]byte(data), &rows); err != nil {
		t.Fatalf("plot data: %v", err)
	}
	var n uint64
	for _, row := range rows {
		for _, v := range row[1:] {
			if v != nil {
				n++
			}
		}
	}
	return n
}

func TestAttackInterrupted(t *testing.T) {
	srv, _ := server(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	began := time.Now()
	out, err := load.Attack(ctx, vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL}), load.Options{
		Rate: 20, Warmup: 0, Duration: 10 * time.Second, Timeout: time.Second, MaxConnections: 2,
	})
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("the attack went on for %v after its context ended", took)
	}
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !out.Interrupted {
		t.Errorf("err %v, interrupted %v; want the context's error and Interrupted", err, out.Interrupted)
	}
	if out.Sent == 0 {
		t.Error("nothing was sent before the interruption")
	}
}

// TestWindowStart checks that the hook runs once, not before the window's
// scheduled start, and has returned when Attack does; and that an attack
// interrupted in its warm-up never calls it.
func TestWindowStart(t *testing.T) {
	srv, _ := server(t)
	tr := vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL})
	opts := load.Options{Rate: 20, Warmup: 500 * time.Millisecond, Duration: 500 * time.Millisecond, Timeout: time.Second, MaxConnections: 2}

	t.Run("window", func(t *testing.T) {
		var calls []time.Time
		var returned atomic.Bool
		o := opts
		o.WindowStart = func() {
			calls = append(calls, time.Now())
			time.Sleep(100 * time.Millisecond) // a hook that takes time: Attack waits for it
			returned.Store(true)
		}
		out, err := load.Attack(context.Background(), tr, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != 1 || calls[0].Before(out.Window.Start) || !returned.Load() {
			t.Errorf("hook called at %v (window from %v), returned %v; want once, from the window's start, returned", calls, out.Window.Start, returned.Load())
		}
	})
	t.Run("interrupted in the warm-up", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var called atomic.Bool
		o := opts
		o.Warmup = time.Hour
		o.WindowStart = func() { called.Store(true) }
		o.Progress = func(load.Progress) { cancel() }
		if _, err := load.Attack(ctx, tr, o); !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want the context's", err)
		}
		if called.Load() {
			t.Error("the hook ran, but the window never started")
		}
	})
}

func TestAttackRejectsBadOptions(t *testing.T) {
	for _, o := range []load.Options{{Rate: 0, Duration: time.Second}, {Rate: 1, Duration: 0}, {Rate: 1, Duration: time.Second, Warmup: -1}} {
		if _, err := load.Attack(context.Background(), nil, o); err == nil {
			t.Errorf("Attack accepted %+v", o)
		}
	}
}
