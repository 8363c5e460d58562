package results_test

import (
	"testing"
	"time"

	"crudbench/bench/results"
)

func TestJudge(t *testing.T) {
	const slo = 50 * time.Millisecond
	tests := []struct {
		name                             string
		target, throughput, success, p99 float64
		verdict, reason                  string
	}{
		{"held within the SLO", 100, 100, 1, 12, results.VerdictOK, ""},
		{"at every threshold", 100, 95, 0.99, 50, results.VerdictOK, ""},
		{"held over the SLO", 100, 100, 1, 50.1, results.VerdictSlow, "p99 50.1 ms is over the 50ms SLO"},
		{"short throughput", 100, 94.9, 1, 12, results.VerdictSaturated, "throughput 94.9/s is under 95% of the 100/s target"},
		{"failures", 100, 100, 0.989, 12, results.VerdictSaturated, "success 98.90% is under 99%"},
		{"queued, not slow", 1200, 600, 0.5, 3089, results.VerdictSaturated, "throughput 600.0/s is under 95% of the 1200/s target; success 50.00% is under 99%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := results.Result{TargetRate: tt.target, Throughput: tt.throughput, SuccessRatio: tt.success, Latency: results.Latency{P99: tt.p99}}
			r.Judge(slo)
			if r.Verdict != tt.verdict || r.Reason != tt.reason {
				t.Errorf("Judge(%v) of %v, %v, %v, %v = %q, %q; want %q, %q", slo, tt.target, tt.throughput, tt.success, tt.p99, r.Verdict, r.Reason, tt.verdict, tt.reason)
			}
		})
	}
}
