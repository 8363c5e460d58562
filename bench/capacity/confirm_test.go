package capacity_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// confirmations is a ConfirmFunc whose runs have the given verdicts in
// turn, and the rates and tries it was asked for.
type confirmations struct {
	verdicts []string
	rates    []float64
	tries    []int
}

func (c *confirmations) run(_ context.Context, rate float64, try int) results.Result {
	c.rates, c.tries = append(c.rates, rate), append(c.tries, try)
	return results.Result{TargetRate: rate, Verdict: c.verdicts[len(c.rates)-1]}
}

func TestConfirm(t *testing.T) {
	const ok, slow, saturated, failed, skipped = results.VerdictOK, results.VerdictSlow, results.VerdictSaturated, results.VerdictFailed, results.VerdictSkipped
	tests := []struct {
		name     string
		verdicts []string
		// wantRates are the rates confirmed, in order; the capacity stands
		// on wantRate, run at index wantRun of them.
		wantRates []float64
		wantRate  float64
		wantRun   int
		wantHeld  bool
		// wantMissed are the indexes of the runs in Missed.
		wantMissed []int
	}{
		{"the first holds", []string{ok}, []float64{1000}, 1000, 0, true, nil},
		{"one step down", []string{slow, ok}, []float64{1000, 900}, 900, 1, true, []int{0}},
		{"two steps down", []string{slow, saturated, ok}, []float64{1000, 900, 810}, 810, 2, true, []int{0, 1}},
		// Three misses: the capacity stays the probes' rate, not held, and
		// the lower runs say the app missed there too.
		{"none holds", []string{slow, slow, slow}, []float64{1000, 900, 810}, 1000, 0, false, []int{1, 2}},
		// A run without a verdict ends the steps: it says nothing of its
		// rate, and only a first one stands for the confirmation.
		{"the first fails", []string{failed}, []float64{1000}, 1000, 0, false, nil},
		{"interrupted after a miss", []string{slow, skipped}, []float64{1000, 900}, 1000, 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &confirmations{verdicts: tt.verdicts}
			got := capacity.Confirm(context.Background(), 1000, c.run)
			if diff := cmp.Diff(tt.wantRates, c.rates, approx); diff != "" {
				t.Errorf("rates confirmed (-want +got):\n%s", diff)
			}
			for i, try := range c.tries {
				if try != i+1 {
					t.Errorf("run %d was try %d", i+1, try)
				}
			}
			if !cmp.Equal(got.Rate, tt.wantRate, approx) {
				t.Errorf("rate %v, want %v", got.Rate, tt.wantRate)
			}
			if got.Held != tt.wantHeld {
				t.Errorf("held %v, want %v", got.Held, tt.wantHeld)
			}
			if want := tt.wantRates[tt.wantRun]; got.Run.TargetRate != want || got.Run.Verdict != tt.verdicts[tt.wantRun] {
				t.Errorf("run at %v (%s), want the one at %v (%s)", got.Run.TargetRate, got.Run.Verdict, want, tt.verdicts[tt.wantRun])
			}
			var missed []float64
			for _, r := range got.Missed {
				missed = append(missed, r.TargetRate)
			}
			var want []float64
			for _, i := range tt.wantMissed {
				want = append(want, tt.wantRates[i])
			}
			if diff := cmp.Diff(want, missed, approx); diff != "" {
				t.Errorf("missed confirmations' rates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfirmStopsWhenCancelled: a miss after the context ended is not
// followed by another run.
func TestConfirmStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	got := capacity.Confirm(ctx, 500, func(context.Context, float64, int) results.Result {
		runs++
		cancel()
		return results.Result{TargetRate: 500, Verdict: results.VerdictSlow}
	})
	if runs != 1 || got.Held || got.Rate != 500 || len(got.Missed) != 0 {
		t.Errorf("%d runs, outcome %+v; want one run that missed, the capacity at 500 not held", runs, got)
	}
}
