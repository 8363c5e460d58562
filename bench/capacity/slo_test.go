package capacity_test

import (
	"testing"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// config is a valid search config on a 2-core machine, the SLO the
// issue's default.
func config() capacity.Config {
	return capacity.Config{
		SLO:   results.CapacitySLO(50 * time.Millisecond),
		Start: 10, Growth: 2, Max: 1000,
		Precision: 0.05,
		Cores:     2, AppCores: 1,
	}
}

// Met records on the probe what the capacity SLO said of it (its cases
// are results.SLO.Judge's).
func TestMet(t *testing.T) {
	tests := []struct {
		name    string
		probe   results.Probe
		met     bool
		wantWhy string
	}{
		{
			name:  "within",
			probe: results.Probe{Rate: 100, Throughput: 99.5, SuccessRatio: 1, P99: 12.3},
			met:   true,
		},
		{
			name:    "behind",
			probe:   results.Probe{Rate: 200, Throughput: 190.04, SuccessRatio: 1, P99: 20},
			wantWhy: "throughput 190 req/s under 99% of 200 req/s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.probe
			if got := capacity.Met(config(), &p); got != tt.met || p.Met != tt.met {
				t.Errorf("Met = %v, p.Met = %v; want %v", got, p.Met, tt.met)
			}
			if p.Why != tt.wantWhy {
				t.Errorf("Why = %q, want %q", p.Why, tt.wantWhy)
			}
		})
	}
}
