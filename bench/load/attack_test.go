package load_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

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
	var i atomic.Int64
	targeter := func(tgt *vegeta.Target) error {
		path := "/ok"
		if i.Add(1)%2 == 0 {
			path = "/wrong"
		}
		*tgt = vegeta.Target{Method: http.MethodGet, URL: srv.URL + path}
		return nil
	}
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

	// The raw file is vegeta's own encoding of the measured window.
	dec := vegeta.DecoderFor(&raw)
	if dec == nil {
		t.Fatal("vegeta cannot read the raw results")
	}
	var m vegeta.Metrics
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		if r.Body != nil || !out.Window.In(r.Seq) || r.Attack != "test" {
			t.Errorf("raw result %+v: want no body, inside the window, attack name", r)
		}
		m.Add(&r)
	}
	m.Close()
	if m.Requests != 50 || len(m.Errors) != 1 {
		t.Errorf("raw file holds %d results with errors %q, want 50 and [wrong answer]", m.Requests, m.Errors)
	}
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

func TestAttackRejectsBadOptions(t *testing.T) {
	for _, o := range []load.Options{{Rate: 0, Duration: time.Second}, {Rate: 1, Duration: 0}, {Rate: 1, Duration: time.Second, Warmup: -1}} {
		if _, err := load.Attack(context.Background(), nil, o); err == nil {
			t.Errorf("Attack accepted %+v", o)
		}
	}
}
