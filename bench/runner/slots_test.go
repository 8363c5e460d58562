package runner_test

import (
	"strings"
	"testing"
	"time"

	"crudbench/bench/results"
	"crudbench/bench/runner"
)

// TestSlotStartOf checks that a run's slot follows its place in the plan,
// the apps taking turns going first.
func TestSlotStartOf(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := results.Settings{
		Profiles: []string{"light", "medium"}, Scenarios: []string{"read-one"}, Apps: []string{"rest", "graphql"},
		Warmup: results.Duration(time.Second), Duration: results.Duration(2 * time.Second), Cooldown: results.Duration(time.Second),
		Repeat: 1,
		Shard:  &results.Shard{Index: 1, Count: 2, StartAt: start, Gap: results.Duration(5 * time.Second)},
	}
	for _, tc := range []struct {
		profile, app string
		want         time.Duration
	}{
		{"light", "rest", 0},
		{"light", "graphql", 9 * time.Second},
		{"medium", "graphql", 18 * time.Second},
		{"medium", "rest", 27 * time.Second},
	} {
		t.Run(tc.profile+"/"+tc.app, func(t *testing.T) {
			got, err := runner.SlotStartOf(s, tc.profile, "read-one", tc.app)
			if err != nil || !got.Equal(start.Add(tc.want)) {
				t.Errorf("slot at %v (%v), want %v after the start", got.Sub(start), err, tc.want)
			}
		})
	}
	t.Run("not in the plan", func(t *testing.T) {
		if _, err := runner.SlotStartOf(s, "high", "read-one", "rest"); err == nil || !strings.Contains(err.Error(), "not in the plan") {
			t.Errorf("error %v, want one saying the run is not in the plan", err)
		}
	})
	t.Run("not sharded", func(t *testing.T) {
		s := s
		s.Shard = nil
		if _, err := runner.SlotStartOf(s, "light", "read-one", "rest"); err == nil {
			t.Error("a run of one runner has slots")
		}
	})
}
