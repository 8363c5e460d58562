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
		SLOP99:             50 * time.Millisecond,
		MinSuccessRatio:    results.CapacityMinSuccessRatio,
		MinThroughputShare: results.CapacityMinThroughputShare,
		Start:              10, Growth: 2, Max: 1000,
		Precision: 0.05,
		Cores:     2, AppCores: 1,
	}
}

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
			name:  "on every limit",
			probe: results.Probe{Rate: 100, Throughput: 99, SuccessRatio: 0.999, P99: 50},
			met:   true,
		},
		{
			name:    "slow",
			probe:   results.Probe{Rate: 100, Throughput: 100, SuccessRatio: 1, P99: 73.21},
			wantWhy: "p99 73.2 ms over the 50 ms SLO",
		},
		{
			name:    "failing",
			probe:   results.Probe{Rate: 100, Throughput: 99.41, SuccessRatio: 0.9941, P99: 20},
			wantWhy: "success 99.41% under 99.9%",
		},
		{
			name:    "behind",
			probe:   results.Probe{Rate: 200, Throughput: 190.04, SuccessRatio: 1, P99: 20},
			wantWhy: "throughput 190 req/s under 99% of 200 req/s",
		},
		{
			name:    "everything",
			probe:   results.Probe{Rate: 100, Throughput: 80, SuccessRatio: 0.9, P99: 3089},
			wantWhy: "p99 3089 ms over the 50 ms SLO; success 90% under 99.9%; throughput 80 req/s under 99% of 100 req/s",
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
