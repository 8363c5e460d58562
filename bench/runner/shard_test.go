package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"crudbench/bench/barrier"
	"crudbench/bench/load"
	"crudbench/bench/runner"
)

// TestWaitSlot checks that a shard waits for its slot, skips a run whose
// slot it reached over a second late, saying how late and what to raise,
// and stops waiting when the context ends.
func TestWaitSlot(t *testing.T) {
	shard := load.Shard{Index: 1, Count: 2}
	t.Run("on time", func(t *testing.T) {
		start := time.Now().Add(200 * time.Millisecond)
		if skip := runner.WaitSlot(context.Background(), shard, start); skip != "" || time.Now().Before(start) {
			t.Errorf("skip %q at %v, want none and not before %v", skip, time.Now(), start)
		}
	})
	t.Run("a little late", func(t *testing.T) {
		if skip := runner.WaitSlot(context.Background(), shard, time.Now().Add(-500*time.Millisecond)); skip != "" {
			t.Errorf("skipped a run reached half a second late: %s", skip)
		}
	})
	t.Run("too late", func(t *testing.T) {
		skip := runner.WaitSlot(context.Background(), shard, time.Now().Add(-3*time.Second))
		for _, want := range []string{"shard 1/2", "slot 3", "s late", "-shard-gap"} {
			if !strings.Contains(skip, want) {
				t.Errorf("skip %q, want it to name %q", skip, want)
			}
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if skip := runner.WaitSlot(ctx, shard, time.Now().Add(time.Hour)); !strings.Contains(skip, "interrupted") {
			t.Errorf("skip %q, want interrupted", skip)
		}
	})
}

// TestBarrierNote checks that the note on the start barrier says when the
// shard was ready, who was missing, and how early or late it learned the
// start: the start skew the merged report carries for every shard.
func TestBarrierNote(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 10, 0, time.UTC)
	ready := map[int]time.Time{0: at.Add(-5 * time.Second), 1: at.Add(-25 * time.Second)}
	for _, tt := range []struct {
		name  string
		start barrier.Start
		want  []string
	}{
		{"all ready", barrier.Start{At: at, SetAt: at.Add(-3 * time.Second), Ready: ready, Arrived: at.Add(-25 * time.Second), Learned: at.Add(-2900 * time.Millisecond)},
			[]string{"shard 1/2 was ready at 11:59:45.000", "set the start at 12:00:07.000 for 12:00:10.000", "all 2 shards were ready, the first and last 20s apart", "learned it 2.9s before the start"}},
		{"missing", barrier.Start{At: at, SetAt: at.Add(-3 * time.Second), Ready: ready, Missing: []int{1}, Learned: at.Add(-time.Second)},
			[]string{"shards [1] not ready (-barrier-timeout)"}},
		{"late", barrier.Start{At: at, SetAt: at.Add(-3 * time.Second), Ready: ready, Learned: at.Add(20 * time.Second)},
			[]string{"learned it 20s after the start", "more than 1s late were skipped"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			note := runner.BarrierNote(load.Shard{Index: 1, Count: 2}, tt.start)
			for _, want := range tt.want {
				if !strings.Contains(note, want) {
					t.Errorf("note %q, want it to say %q", note, want)
				}
			}
		})
	}
}
