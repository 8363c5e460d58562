package merge

import (
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// window is the measured window, empty, of the run of r in the shards'
// schedule: the bounds one runner at the run's whole rate (a shard's
// TargetRate is its share) has from the run's slot, which every shard's
// requests of the run fall in.
func window(s results.Settings, r results.Result) (*load.Window, error) {
	start, err := load.SlotOf(s, r.Profile, r.Scenario, r.App)
	if err != nil {
		return nil, err
	}
	return load.WindowOf(start, rateOf(s, r), time.Duration(s.Warmup), time.Duration(s.Duration)), nil
}

// rateOf is the rate of r's run in the schedule all shards shared.
func rateOf(s results.Settings, r results.Result) float64 {
	return s.Rates[r.Profile][r.Scenario]
}
