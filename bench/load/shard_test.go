package load_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/load"
)

// TestShardPacerSchedule checks which requests of a schedule each shard
// sends and when they are due.
func TestShardPacerSchedule(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, tc := range []struct {
		name     string
		shard    load.Shard
		rate     float64
		d        time.Duration
		numbers  []uint64        // the schedule's numbers of the shard's hits
		due      []time.Duration // when they are due, from start
		rateEach float64
	}{
		{"first of three", load.Shard{Index: 0, Count: 3, Start: start}, 10, time.Second,
			[]uint64{0, 3, 6, 9}, []time.Duration{ms(100), ms(400), ms(700), ms(1000)}, 10.0 / 3},
		{"second of three", load.Shard{Index: 1, Count: 3, Start: start}, 10, time.Second,
			[]uint64{1, 4, 7}, []time.Duration{ms(200), ms(500), ms(800)}, 10.0 / 3},
		{"last of three", load.Shard{Index: 2, Count: 3, Start: start}, 10, time.Second,
			[]uint64{2, 5, 8}, []time.Duration{ms(300), ms(600), ms(900)}, 10.0 / 3},
		{"fractional rate", load.Shard{Index: 1, Count: 2, Start: start}, 2.5, 2 * time.Second,
			[]uint64{1, 3}, []time.Duration{ms(800), ms(1600)}, 1.25},
		{"more shards than requests", load.Shard{Index: 4, Count: 5, Start: start}, 2, time.Second,
			nil, nil, 0.4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := load.NewShardPacer(tc.shard, tc.rate, tc.d)
			if p.Hits != uint64(len(tc.numbers)) {
				t.Fatalf("%d hits, want %d", p.Hits, len(tc.numbers))
			}
			for k, n := range tc.numbers {
				if got := p.Number(uint64(k)); got != n {
					t.Errorf("hit %d is request %d, want %d", k, got, n)
				}
				if got := p.Due(uint64(k)).Sub(start); got != tc.due[k] {
					t.Errorf("hit %d due at %v, want %v", k, got, tc.due[k])
				}
			}
			if _, stop := p.Pace(0, p.Hits); !stop {
				t.Error("the pacer goes on after the shard's share")
			}
			if got := p.Rate(0); got != tc.rateEach {
				t.Errorf("rate %v, want %v", got, tc.rateEach)
			}
		})
	}
}

// TestShardPacerWallClock checks that a hit waits for its due time counted
// from the shared start, not from when the pacer is asked, and that an
// overdue hit leaves at once.
func TestShardPacerWallClock(t *testing.T) {
	t.Run("due later", func(t *testing.T) {
		start := time.Now().Add(time.Hour)
		p := load.NewShardPacer(load.Shard{Index: 1, Count: 2, Start: start}, 10, time.Second)
		before := time.Now()
		wait, stop := p.Pace(time.Minute, 0) // the elapsed time does not matter
		after := time.Now()
		due := start.Add(200 * time.Millisecond)
		if stop || wait > due.Sub(before) || wait < due.Sub(after) {
			t.Errorf("wait %v (stop %v), want the time until %v", wait, stop, due)
		}
	})
	t.Run("overdue", func(t *testing.T) {
		p := load.NewShardPacer(load.Shard{Index: 0, Count: 2, Start: time.Now().Add(-time.Hour)}, 10, time.Second)
		if wait, stop := p.Pace(0, 2); wait != 0 || stop {
			t.Errorf("wait %v (stop %v), want 0: the hit is overdue", wait, stop)
		}
	})
}

// TestShardsMakeOneWindow runs two shards of one schedule side by side
// against a real server: their raw results together are exactly the
// window of one runner at the full rate, each request sent by one shard,
// none before it was due.
func TestShardsMakeOneWindow(t *testing.T) {
	srv, served := server(t)
	const rate, count = 100, 2
	// The start is shared and wall-clock only (as -start-at parses it).
	start := time.Now().Add(300 * time.Millisecond).Round(0)
	var wg sync.WaitGroup
	raws := make([]bytes.Buffer, count)
	outs := make([]*load.Outcome, count)
	errs := make([]error, count)
	for i := range count {
		wg.Go(func() {
			outs[i], errs[i] = load.Attack(context.Background(),
				vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: srv.URL}), load.Options{
					Name: "shard", Rate: rate, Warmup: 200 * time.Millisecond, Duration: 500 * time.Millisecond,
					Timeout: 5 * time.Second, MaxConnections: 4, Raw: &raws[i],
					Shard: &load.Shard{Index: i, Count: count, Start: start},
				})
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if served.Load() != 70 {
		t.Errorf("the server answered %d requests, want 70: 20 of warm-up and 50 measured at %d/s", served.Load(), rate)
	}
	interval := time.Second / rate
	var seqs []uint64
	for i, out := range outs {
		if out.Sent != 35 || out.Requests != 25 || out.Window.First != 20 || out.Window.Count != 50 {
			t.Errorf("shard %d sent %d, measured %d of window %d+%d; want 35, 25 of 20+50",
				i, out.Sent, out.Requests, out.Window.First, out.Window.Count)
		}
		if want := start.Add(20*interval + interval/2); !out.Window.Start.Equal(want) {
			t.Errorf("shard %d: window starts %v, want %v as one runner's from the shared start", i, out.Window.Start, want)
		}
		for _, r := range decodeAll(t, &raws[i]) {
			n := r.Seq + out.Window.First
			if int(n%count) != i {
				t.Errorf("shard %d sent request %d, another shard's", i, n)
			}
			if due := start.Add(time.Duration(n+1) * interval); r.Timestamp.Before(due) {
				t.Errorf("request %d sent at %v, before it was due at %v", n, r.Timestamp, due)
			}
			seqs = append(seqs, r.Seq)
		}
	}
	slices.Sort(seqs)
	want := make([]uint64, 50)
	for i := range want {
		want[i] = uint64(i)
	}
	if !slices.Equal(seqs, want) {
		t.Errorf("the shards' raw results hold requests %v, want each of 0..49 once", seqs)
	}
}

func TestAttackRejectsBadShard(t *testing.T) {
	for _, s := range []load.Shard{
		{Index: 2, Count: 2, Start: time.Now()},
		{Index: -1, Count: 2, Start: time.Now()},
		{Index: 0, Count: 0, Start: time.Now()},
		{Index: 0, Count: 2},
	} {
		o := load.Options{Rate: 1, Duration: time.Second, Shard: &s}
		if _, err := load.Attack(context.Background(), nil, o); err == nil {
			t.Errorf("Attack accepted shard %+v", s)
		}
	}
}

// decodeAll reads every result of a raw file.
func decodeAll(t *testing.T, raw io.Reader) []vegeta.Result {
	t.Helper()
	dec := vegeta.NewDecoder(raw)
	var all []vegeta.Result
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			return all
		}
		all = append(all, r)
	}
}
