package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

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
