package load_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"github.com/tsenart/vegeta/v12/lib/plot"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/bench/grpcwire"
	"crudbench/bench/load"
)

// slowServer answers every request after 10 ms and records how many of its
// handlers ran at once at most, and how many requests it answered.
type slowServer struct {
	*httptest.Server
	inFlight, most, served atomic.Int64
}

func newSlowServer(t *testing.T) *slowServer {
	t.Helper()
	s := &slowServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
		}
		time.Sleep(10 * time.Millisecond)
		s.served.Add(1)
		io.WriteString(w, "slow")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestClosedLoop drives a server that takes 10 ms a request with N
// clients: never more than N requests in flight, N reached, and a
// throughput that cannot exceed N per 10 ms (each client waits for its
// answer) and, on a loaded machine, falls short of it by a bounded amount.
func TestClosedLoop(t *testing.T) {
	for _, clients := range []int{1, 4} {
		t.Run(fmt.Sprintf("%d clients", clients), func(t *testing.T) {
			srv := newSlowServer(t)
			var raw bytes.Buffer
			out, err := load.Attack(context.Background(), vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL}), load.Options{
				Name: "test", Clients: clients, Warmup: 300 * time.Millisecond, Duration: 2 * time.Second,
				Timeout: 5 * time.Second, MaxConnections: 100, Raw: &raw,
			})
			if err != nil {
				t.Fatal(err)
			}
			if most := srv.most.Load(); most != int64(clients) {
				t.Errorf("at most %d requests in flight, want exactly %d (never more, and reached)", most, clients)
			}
			if !out.Window.Closed() || out.Window.First == 0 || out.Window.Count != out.Requests {
				t.Errorf("window of requests %d+%d holding %d, closed %v; want a closed window after the warm-up's, holding its count",
					out.Window.First, out.Window.Count, out.Requests, out.Window.Closed())
			}
			if served := srv.served.Load(); uint64(served) != out.Sent || out.Sent != out.Window.First+out.Window.Count {
				t.Errorf("server answered %d, attack sent %d, window %d+%d: want them equal, nothing sent past the window",
					served, out.Sent, out.Window.First, out.Window.Count)
			}
			ceiling := float64(clients) * 100 // N clients at 10 ms a request
			t.Logf("%d clients: throughput %.1f/s, %d requests, p50 %v", clients, out.Throughput, out.Requests, out.P50)
			if out.Throughput > 1.1*ceiling || out.Throughput < 0.4*ceiling {
				t.Errorf("throughput %.1f/s, want about %.0f/s (0.4× to 1.1×)", out.Throughput, ceiling)
			}
			if out.AchievedRate > 1.1*ceiling || out.SuccessRatio != 1 {
				t.Errorf("achieved %.1f/s, success %v; want at most %.0f/s, all succeeded", out.AchievedRate, out.SuccessRatio, 1.1*ceiling)
			}
			if out.P50 < 10*time.Millisecond {
				t.Errorf("p50 %v, under the server's 10 ms", out.P50)
			}
			sent := 0
			for _, s := range out.Timeline {
				sent += s.Requests
			}
			if len(out.Timeline) != 2 || uint64(sent) != out.Requests {
				t.Errorf("timeline of %d seconds with %d requests, want 2 seconds holding the window's %d", len(out.Timeline), sent, out.Requests)
			}
			checkClosedRaw(t, &raw, out.Window)
		})
	}
}

// checkClosedRaw checks that raw is vegeta's encoding of window's results:
// numbered from 0 in the order they were sent, each sent in the window,
// and that vegeta's plot reads every one.
func checkClosedRaw(t *testing.T, raw io.Reader, w *load.Window) {
	t.Helper()
	dec := vegeta.DecoderFor(raw)
	if dec == nil {
		t.Fatal("vegeta cannot read the raw results")
	}
	sent := make([]time.Time, w.Count)
	p := plot.New(plot.Title("raw"), plot.Downsample(4000), plot.Label(plot.ErrorLabeler))
	var n uint64
	for ; ; n++ {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		if r.Seq >= w.Count || !sent[r.Seq].IsZero() || r.Timestamp.Before(w.Start) {
			t.Fatalf("raw result %d sent at %v: want a number of its own under %d, sent from the window's start %v", r.Seq, r.Timestamp, w.Count, w.Start)
		}
		sent[r.Seq] = r.Timestamp
		if err := p.Add(&r); err != nil {
			t.Fatalf("plot: %v", err)
		}
	}
	if n != w.Count {
		t.Errorf("raw file holds %d results, want %d", n, w.Count)
	}
	for i := 1; i < len(sent); i++ {
		if sent[i].Before(sent[i-1]) {
			t.Fatalf("request %d sent at %v, before request %d at %v", i, sent[i], i-1, sent[i-1])
		}
	}
	p.Close()
	var page bytes.Buffer
	if _, err := p.WriteTo(&page); err != nil {
		t.Fatal(err)
	}
	if got := plotPoints(t, page.String()); got != w.Count {
		t.Errorf("the plot holds %d points, want %d", got, w.Count)
	}
}

// TestClosedLoopGRPC runs a closed loop over the grpc kind's transport.
func TestClosedLoopGRPC(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)

	wire := grpcwire.New(1)
	defer wire.Close()
	target := vegeta.Target{Method: http.MethodPost, URL: "grpc://" + ln.Addr().String() + "/grpc.health.v1.Health/Check"}
	out, err := load.Attack(context.Background(), vegeta.NewStaticTargeter(target), load.Options{
		Name: "grpc", Clients: 2, Warmup: 100 * time.Millisecond, Duration: 500 * time.Millisecond, Timeout: 5 * time.Second,
		MaxConnections: 100, Transport: wire,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Requests == 0 || out.Window.Count != out.Requests || out.SuccessRatio != 1 || out.BytesInMean != 2 {
		t.Errorf("measured %d of a window of %d, success %v, %v bytes in; want some, all of it, 1, 2", out.Requests, out.Window.Count, out.SuccessRatio, out.BytesInMean)
	}
}

// TestClosedLoopInterrupted stops a closed loop whose clients wait on a
// server that answers slowly.
func TestClosedLoopInterrupted(t *testing.T) {
	srv := newSlowServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	out, err := load.Attack(ctx, vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL}), load.Options{
		Clients: 2, Duration: time.Hour, Timeout: time.Second, MaxConnections: 2,
	})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !out.Interrupted || out.Sent == 0 {
		t.Errorf("err %v, interrupted %v, sent %d; want the context's error, Interrupted, some sent", err, out.Interrupted, out.Sent)
	}
}

func TestClosedLoopRejectsRate(t *testing.T) {
	for _, o := range []load.Options{
		{Clients: 2, Rate: 10, Duration: time.Second},
		{Clients: 2, Duration: time.Second, Shard: &load.Shard{Count: 2, Start: time.Now()}},
	} {
		if _, err := load.Attack(context.Background(), nil, o); err == nil {
			t.Errorf("Attack accepted %+v", o)
		}
	}
}

// TestClosedPacerDecidesWhenAClientIsFree checks what vegeta's own pacing
// of N workers gets wrong: the pacer releases no request while every
// client waits for an answer, and reads the clock only once one is free,
// so a request a client sends after the warm-up belongs to the window
// even when its predecessor left during the warm-up, and none leaves
// after the window's end.
func TestClosedPacerDecidesWhenAClientIsFree(t *testing.T) {
	const warmup, duration = time.Second, time.Second
	p := load.NewClosedPacer(1, warmup, duration, nil)
	end := time.Now().Add(warmup + duration) // no earlier than the pacer's
	if _, stop := p.Pace(0, 0); stop {
		t.Fatal("the first request was not released")
	}
	if _, ok := p.First(); ok {
		t.Fatal("the window opened at the first request: the test needs it sent during the warm-up")
	}
	paced := make(chan bool)
	pace := func(hits uint64) { _, stop := p.Pace(0, hits); paced <- stop }

	go pace(1)
	select {
	case <-paced:
		t.Fatal("a request was released while the only client waited for its answer")
	case <-time.After(warmup + 100*time.Millisecond): // the client's answer comes after the warm-up
	}
	p.Answered()
	if stop := <-paced; stop {
		t.Fatal("the client's next request was not released")
	}
	if first, ok := p.First(); !ok || first != 1 {
		t.Errorf("window from request %d (open %v), want 1: sent after the warm-up", first, ok)
	}

	go pace(2)
	time.Sleep(time.Until(end) + 100*time.Millisecond) // the answer comes after the window
	p.Answered()
	if stop := <-paced; !stop {
		t.Error("a request was released after the window's end")
	}
}
