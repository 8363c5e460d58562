package barrier_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/barrier"
)

// long is a timeout no passing test reaches: a barrier that releases
// before it released because every shard was ready.
const long = time.Minute

// result is what one shard's Wait returned.
type result struct {
	index int
	start barrier.Start
	err   error
}

// wait runs shard b's Wait in its own goroutine and sends what it returned.
func wait(ctx context.Context, b barrier.Barrier, out chan<- result) {
	go func() {
		s, err := b.Wait(ctx)
		out <- result{b.Index, s, err}
	}()
}

// TestAllReady checks that the shards start together as soon as the last
// one is ready, whatever order they come in: one start for all, set after
// every shard's arrival, none missing, long before the timeout.
func TestAllReady(t *testing.T) {
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		t.Run(orderName(order), func(t *testing.T) {
			dir := t.TempDir()
			out := make(chan result)
			for _, i := range order {
				wait(t.Context(), barrier.Barrier{Dir: dir, Index: i, Count: 3, Timeout: long}, out)
			}
			var got []result
			for range order {
				got = append(got, <-out)
			}
			at := got[0].start.At
			for _, r := range got {
				if r.err != nil {
					t.Fatalf("shard %d: %v", r.index, r.err)
				}
				s := r.start
				if !s.At.Equal(at) {
					t.Errorf("shard %d starts at %s, another at %s", r.index, s.At, at)
				}
				if len(s.Missing) != 0 || len(s.Ready) != 3 {
					t.Errorf("shard %d: ready %v, missing %v: want all 3 ready", r.index, s.Ready, s.Missing)
				}
				for i, ready := range s.Ready {
					if s.SetAt.Before(ready) {
						t.Errorf("start set at %s, before shard %d was ready at %s", s.SetAt, i, ready)
					}
				}
				if !s.At.After(s.SetAt) || s.Late() != 0 {
					t.Errorf("shard %d: start %s set at %s, learned at %s (late %s): want it learned before the start", r.index, s.At, s.SetAt, s.Learned, s.Late())
				}
			}
		})
	}
}

// orderName names an order of shards, e.g. "210".
func orderName(order []int) string {
	var b strings.Builder
	for _, i := range order {
		b.WriteString(string(rune('0' + i)))
	}
	return b.String()
}

// TestLateShard checks that a shard that is not ready in time does not
// hold the others: shard 0 starts without it once the timeout has passed,
// naming it missing, and the late shard, when it comes, gets the same
// start at once, with how late it learned it.
func TestLateShard(t *testing.T) {
	dir := t.TempDir()
	out := make(chan result)
	for i := range 2 {
		wait(t.Context(), barrier.Barrier{Dir: dir, Index: i, Count: 3, Timeout: 200 * time.Millisecond, Lead: time.Nanosecond}, out)
	}
	first := []result{<-out, <-out}
	for _, r := range first {
		if r.err != nil {
			t.Fatalf("shard %d: %v", r.index, r.err)
		}
		if !slices.Equal(r.start.Missing, []int{2}) {
			t.Errorf("shard %d: missing %v, want [2]", r.index, r.start.Missing)
		}
	}
	late, err := barrier.Barrier{Dir: dir, Index: 2, Count: 3, Timeout: long}.Wait(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !late.At.Equal(first[0].start.At) {
		t.Errorf("the late shard starts at %s, the others at %s", late.At, first[0].start.At)
	}
	if late.Late() <= 0 || late.Late() != late.Learned.Sub(late.At) {
		t.Errorf("late by %s, learned %s, start %s: want the time it learned the start after it", late.Late(), late.Learned, late.At)
	}
}

// TestRestart checks that a shard that starts again after the start was
// set, shard 0 included, gets the start set before, not a new one.
func TestRestart(t *testing.T) {
	dir := t.TempDir()
	out := make(chan result)
	for i := range 2 {
		wait(t.Context(), barrier.Barrier{Dir: dir, Index: i, Count: 2, Timeout: long}, out)
	}
	before := (<-out).start
	<-out
	for i := range 2 {
		t.Run(string(rune('0'+i)), func(t *testing.T) {
			again, err := barrier.Barrier{Dir: dir, Index: i, Count: 2, Timeout: long}.Wait(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !again.At.Equal(before.At) || !again.SetAt.Equal(before.SetAt) {
				t.Errorf("restarted shard %d: start %s set at %s, want %s set at %s", i, again.At, again.SetAt, before.At, before.SetAt)
			}
		})
	}
}

// TestNoCoordinator checks that a shard never released, because shard 0
// does not come, fails within its timeout instead of waiting forever.
func TestNoCoordinator(t *testing.T) {
	_, err := barrier.Barrier{Dir: t.TempDir(), Index: 1, Count: 2, Timeout: 100 * time.Millisecond}.Wait(t.Context())
	if err == nil || !strings.Contains(err.Error(), "shard 0 set no start") {
		t.Errorf("err = %v, want shard 0's start missing", err)
	}
}

// TestCanceled checks that a wait ends when its context does.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	out := make(chan result)
	wait(ctx, barrier.Barrier{Dir: t.TempDir(), Index: 0, Count: 2, Timeout: long}, out)
	stop := errors.New("stopped")
	cancel(stop)
	if r := <-out; !errors.Is(r.err, stop) {
		t.Errorf("err = %v, want the context's cause", r.err)
	}
}

// TestRefused checks the barriers that name no shard of a run.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	for name, b := range map[string]barrier.Barrier{
		"no folder":     {Index: 0, Count: 2, Timeout: long},
		"index":         {Dir: dir, Index: 2, Count: 2, Timeout: long},
		"no timeout":    {Dir: dir, Index: 0, Count: 2},
		"negative lead": {Dir: dir, Index: 0, Count: 2, Timeout: long, Lead: -time.Second},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := b.Wait(t.Context()); err == nil {
				t.Error("want an error")
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused barrier wrote %v", entries)
	}
}

// TestBadStartFile checks that a start file that is not one is an error
// naming it, not a start.
func TestBadStartFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "start"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := barrier.Barrier{Dir: dir, Index: 1, Count: 2, Timeout: long}.Wait(t.Context())
	if err == nil || !strings.Contains(err.Error(), "start") {
		t.Errorf("err = %v, want the start file named", err)
	}
}
