package load_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// TestPlan checks that the apps take turns going first in each block.
func TestPlan(t *testing.T) {
	got := load.Plan([]string{"light"}, []string{"read-one", "read-small"}, []string{"rest", "graphql", "htmx"}, 2)
	job := func(scenario, app string, repeat int) load.Job {
		return load.Job{Profile: "light", Scenario: scenario, App: app, Repeat: repeat}
	}
	want := []load.Job{
		job("read-one", "rest", 1), job("read-one", "graphql", 1), job("read-one", "htmx", 1),
		job("read-one", "graphql", 2), job("read-one", "htmx", 2), job("read-one", "rest", 2),
		job("read-small", "htmx", 1), job("read-small", "rest", 1), job("read-small", "graphql", 1),
		job("read-small", "rest", 2), job("read-small", "graphql", 2), job("read-small", "htmx", 2),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
}

// TestSlots checks the slot arithmetic: every run of the plan, repeats
// included, gets warm-up + duration + cool-down + gap after the one
// before it, from the shared start.
func TestSlots(t *testing.T) {
	start := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	slots := load.Slots{Start: start, Warmup: 3 * time.Second, Duration: 15 * time.Second, Cooldown: 2 * time.Second, Gap: 5 * time.Second}
	if got := slots.Length(); got != 25*time.Second {
		t.Errorf("slot %v, want 25s", got)
	}
	for _, tt := range []struct {
		j    int
		want time.Duration
	}{{0, 0}, {1, 25 * time.Second}, {2, 50 * time.Second}, {10, 250 * time.Second}} {
		j, want := tt.j, tt.want
		if got := slots.At(j).Sub(start); got != want {
			t.Errorf("run %d starts %v after the start, want %v", j, got, want)
		}
	}
}

// TestSlotOf checks that a run's slot follows its place in the plan,
// the apps taking turns going first.
func TestSlotOf(t *testing.T) {
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
			got, err := load.SlotOf(s, tc.profile, "read-one", tc.app)
			if err != nil || !got.Equal(start.Add(tc.want)) {
				t.Errorf("slot at %v (%v), want %v after the start", got.Sub(start), err, tc.want)
			}
		})
	}
	t.Run("not in the plan", func(t *testing.T) {
		if _, err := load.SlotOf(s, "high", "read-one", "rest"); err == nil || !strings.Contains(err.Error(), "not in the plan") {
			t.Errorf("error %v, want one saying the run is not in the plan", err)
		}
	})
	t.Run("not sharded", func(t *testing.T) {
		s := s
		s.Shard = nil
		if _, err := load.SlotOf(s, "light", "read-one", "rest"); err == nil {
			t.Error("a run of one runner has slots")
		}
	})
}
