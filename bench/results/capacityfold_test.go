package results_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/results"
)

// search is search number n of rest's read-one: a confirmed rate when
// held, else the probes' rate alone.
func search(n int, rate float64, held bool, stop string) results.Capacity {
	return results.Capacity{Scenario: "read-one", App: "rest", Status: results.CapacityFound, Rate: rate, Held: held,
		StopReason: stop, Search: n, PID: 1000 + n}
}

func TestFoldCapacities(t *testing.T) {
	none := results.Capacity{Status: results.CapacityNone, Upper: 100, Search: 3}
	failed := results.Capacity{Status: results.CapacityFailed, Reason: "starting the app afresh: boom", Search: 2}
	tests := []struct {
		name     string
		searches []results.Capacity
		// want is the number of the search the fold is, 0 for none.
		want      int
		wantRates []float64
	}{
		{"one search is itself", []results.Capacity{search(1, 500, true, results.StopAppCPU)}, 1, []float64{500}},
		{"the median of three", []results.Capacity{
			search(1, 383, true, results.StopSpike), search(2, 703, true, results.StopSpike), search(3, 512, true, results.StopAppCPU),
		}, 3, []float64{383, 703, 512}},
		{"the lower of the middle two of an even count", []results.Capacity{
			search(1, 600, true, results.StopAppCPU), search(2, 500, true, results.StopAppCPU),
		}, 2, []float64{600, 500}},
		{"an unconfirmed rate in a minority does not count", []results.Capacity{
			search(1, 500, true, results.StopAppCPU), search(2, 900, false, results.StopSpike), search(3, 520, true, results.StopAppCPU),
		}, 1, []float64{500, 520}},
		{"unconfirmed in a majority: the median of those, unconfirmed", []results.Capacity{
			search(1, 400, false, results.StopSpike), search(2, 500, true, results.StopAppCPU), search(3, 600, false, results.StopSpike),
		}, 1, []float64{400, 600}},
		{"none counts as a rate of zero", []results.Capacity{
			search(1, 200, true, results.StopAppCPU), search(2, 300, true, results.StopAppCPU), none,
		}, 1, []float64{200, 300, 0}},
		{"a search that did not run is left out", []results.Capacity{
			search(1, 200, true, results.StopAppCPU), failed, search(3, 300, true, results.StopAppCPU),
		}, 1, []float64{200, 300}},
		{"none ran: the first", []results.Capacity{failed, failed}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := results.FoldCapacities(tt.searches)
			if got.Search != tt.want {
				t.Errorf("the fold is search %d, want %d", got.Search, tt.want)
			}
			if len(tt.searches) > 1 && !cmp.Equal(got.Searches, tt.searches) {
				t.Errorf("searches kept %+v, want every one as it ran", got.Searches)
			}
			if len(tt.searches) == 1 && got.Searches != nil {
				t.Errorf("a single search keeps %d searches, want none", len(got.Searches))
			}
			if rates := got.CountedRates(); tt.wantRates != nil && !cmp.Equal(rates, tt.wantRates) {
				t.Errorf("counted rates %v, want %v", rates, tt.wantRates)
			}
		})
	}
}

// The median's fields are one real search's: its confirmation and
// probes, not a blend.
func TestFoldCapacitiesKeepsOneSearch(t *testing.T) {
	a, b, c := search(1, 383, true, results.StopSpike), search(2, 703, true, results.StopSpike), search(3, 512, true, results.StopAppCPU)
	b.Confirmation = &results.Result{TargetRate: 703}
	c.Confirmation = &results.Result{TargetRate: 512}
	c.Probes = []results.Probe{{Rate: 400, Met: true}}
	got := results.FoldCapacities([]results.Capacity{a, b, c})
	got.Searches = nil
	if !cmp.Equal(got, c) {
		t.Errorf("fold %+v, want search 3 as it ran", got)
	}
}

func TestCapacityRange(t *testing.T) {
	tests := []struct {
		name     string
		searches []results.Capacity
		lo, hi   float64
		n        int
		wide     bool
	}{
		{"within ±8%", []results.Capacity{search(1, 920, true, ""), search(2, 1000, true, ""), search(3, 1080, true, "")}, 920, 1080, 3, false},
		{"at +10% exactly", []results.Capacity{search(1, 1000, true, ""), search(2, 1000, true, ""), search(3, 1100, true, "")}, 1000, 1100, 3, false},
		{"up by more than 10%", []results.Capacity{search(1, 383, true, ""), search(2, 703, true, ""), search(3, 512, true, "")}, 383, 703, 3, true},
		{"down by more than 10%", []results.Capacity{search(1, 102, true, ""), search(2, 130, true, ""), search(3, 118, true, "")}, 102, 130, 3, true},
		{"an unconfirmed search counts in the range", []results.Capacity{search(1, 500, true, ""), search(2, 900, false, ""), search(3, 510, true, "")}, 500, 900, 3, true},
		{"a search that did not run does not", []results.Capacity{search(1, 500, true, ""), {Status: results.CapacitySkipped}}, 500, 500, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := results.FoldCapacities(tt.searches)
			lo, hi, n := c.Range()
			if lo != tt.lo || hi != tt.hi || n != tt.n {
				t.Errorf("range %v–%v of %d, want %v–%v of %d", lo, hi, n, tt.lo, tt.hi, tt.n)
			}
			if got := c.WideSpread(); got != tt.wide {
				t.Errorf("wide %v around a median of %v, want %v", got, c.Rate, tt.wide)
			}
		})
	}
}

// The median of searches is a lower bound when a search at or below it
// was machine-bound; one above it cannot move it, and an unconfirmed
// median bounds nothing.
func TestFoldMachineBound(t *testing.T) {
	pg, spike := results.StopPostgresCPU, results.StopSpike
	tests := []struct {
		name     string
		searches []results.Capacity
		want     string
	}{
		{"every search bound", []results.Capacity{search(1, 900, true, pg), search(2, 916, true, pg), search(3, 950, true, pg)}, pg},
		{"the median search bound", []results.Capacity{search(1, 880, true, spike), search(2, 916, true, pg), search(3, 950, true, spike)}, pg},
		{"a search below the median bound", []results.Capacity{search(1, 880, true, results.StopLoadGenerator), search(2, 916, true, spike), search(3, 950, true, spike)}, results.StopLoadGenerator},
		{"only a search above the median bound", []results.Capacity{search(1, 880, true, spike), search(2, 916, true, spike), search(3, 950, true, pg)}, ""},
		{"an unconfirmed median", []results.Capacity{search(1, 880, true, pg), search(2, 916, false, pg), search(3, 950, false, pg)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := results.FoldCapacities(tt.searches)
			if got := c.BoundReason(); got != tt.want {
				t.Errorf("bound by %q, want %q", got, tt.want)
			}
			if c.MachineBound() != (tt.want != "") {
				t.Errorf("MachineBound() = %v with bound reason %q", c.MachineBound(), tt.want)
			}
		})
	}
}

// A capacity written before searches were repeated reads as one search:
// no searches of its own, its rate its median and range, its bound its
// own.
func TestCapacityFromAnOlderFile(t *testing.T) {
	var c results.Capacity
	if err := json.Unmarshal([]byte(`{"scenario":"read-one","app":"rest","status":"found","rate":916,"upper":960,"stopReason":"postgres-cpu","probes":[],"held":true}`), &c); err != nil {
		t.Fatal(err)
	}
	lo, hi, n := c.Range()
	if c.Repeated() || c.Search != 0 || c.PID != 0 || lo != 916 || hi != 916 || n != 1 || c.WideSpread() ||
		!cmp.Equal(c.CountedRates(), []float64{916}) || c.BoundReason() != results.StopPostgresCPU {
		t.Errorf("older capacity read as repeated %v, search %d, pid %d, range %v–%v of %d, wide %v, rates %v, bound %q",
			c.Repeated(), c.Search, c.PID, lo, hi, n, c.WideSpread(), c.CountedRates(), c.BoundReason())
	}
}
