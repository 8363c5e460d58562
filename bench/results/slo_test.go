package results_test

import (
	"testing"
	"time"

	"crudbench/bench/results"
)

func TestSLOJudge(t *testing.T) {
	slo := results.CapacitySLO(50 * time.Millisecond)
	tests := []struct {
		name                           string
		rate, throughput, success, p99 float64
		want                           results.Judgement
	}{
		{"within", 100, 99.5, 1, 12.3, results.Judgement{Met: true, HeldRate: true}},
		{"on every limit", 100, 99, 0.999, 50, results.Judgement{Met: true, HeldRate: true}},
		{"slow", 100, 100, 1, 73.21, results.Judgement{HeldRate: true, Why: "p99 73.2 ms over the 50 ms SLO"}},
		{"failing", 100, 99.41, 0.9941, 20, results.Judgement{Why: "success 99.41% under 99.9%"}},
		// 96% of the rate is ok by a fixed profile's verdict (95%), not by
		// a capacity's.
		{"96% of the rate", 1000, 960, 1, 12, results.Judgement{Why: "throughput 960 req/s under 99% of 1000 req/s"}},
		{"everything", 100, 80, 0.9, 3089, results.Judgement{Why: "p99 3089 ms over the 50 ms SLO; success 90% under 99.9%; throughput 80 req/s under 99% of 100 req/s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := slo.Judge(tt.rate, tt.throughput, tt.success, tt.p99); got != tt.want {
				t.Errorf("Judge(%v, %v, %v, %v) = %+v, want %+v", tt.rate, tt.throughput, tt.success, tt.p99, got, tt.want)
			}
		})
	}
}

// A probe and a confirmation with the same numbers are judged alike: one
// rule for both.
func TestSLOJudgesProbesAndRunsAlike(t *testing.T) {
	slo := results.CapacitySLO(50 * time.Millisecond)
	p := results.Probe{Rate: 1000, Throughput: 960, SuccessRatio: 1, P99: 12}
	r := results.Result{TargetRate: 1000, Throughput: 960, SuccessRatio: 1, Latency: results.Latency{P99: 12}}
	if jp, jr := slo.JudgeProbe(p), slo.JudgeRun(&r); jp != jr || jp.Met {
		t.Errorf("probe judged %+v, run %+v; want the same miss", jp, jr)
	}
}

// A file written before the SLO judged latency (p99 zero) is judged on
// its rate alone.
func TestSLOWithoutLatency(t *testing.T) {
	slo := results.CapacitySLO(0)
	if j := slo.Judge(100, 100, 1, 3000); !j.Met {
		t.Errorf("a run that held its rate: %+v, want met when no latency is judged", j)
	}
}

func TestSettingsCapacitySLO(t *testing.T) {
	tests := []struct {
		name     string
		settings results.Settings
		want     results.SLO
	}{
		{"recorded", results.Settings{SLOP99: results.Duration(time.Second), Capacity: &results.CapacitySettings{MinSuccessRatio: 0.99, MinThroughputShare: 0.9}},
			results.SLO{P99: time.Second, MinSuccessRatio: 0.99, MinThroughputShare: 0.9}},
		{"not recorded", results.Settings{SLOP99: results.Duration(time.Second)}, results.CapacitySLO(time.Second)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.settings.CapacitySLO(); got != tt.want {
				t.Errorf("CapacitySLO() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
