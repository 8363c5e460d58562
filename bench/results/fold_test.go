package results_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/results"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := results.Median(tt.xs); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

func rep(throughput, p99, cpu float64, verdict string, errs ...string) results.Result {
	return results.Result{
		Profile: "light", Scenario: "read-one", App: "rest", Verdict: verdict, TargetRate: 100,
		AchievedRate: 100, Throughput: throughput, Requests: uint64(throughput * 15), SuccessRatio: 1,
		StatusCodes: map[string]int{"200": int(throughput * 15)}, Errors: errs,
		Latency: results.Latency{P50: p99 / 2, P99: p99},
		AppCost: results.ProcessCost{Available: true, CPUMean: cpu, RSSMaxMB: 20},
		DB:      results.DBCost{Available: true, StatementsPerRequest: 4},
		RawFile: "raw/t" + string(rune('0'+int(throughput)%10)) + ".bin",
	}
}

func TestFold(t *testing.T) {
	t.Run("one repeat", func(t *testing.T) {
		r := rep(99, 10, 0.2, results.VerdictOK)
		if d := cmp.Diff(r, results.Fold([]results.Result{r}, results.DefaultSLOP99)); d != "" {
			t.Errorf("one repeat changed (-want +got):\n%s", d)
		}
	})
	t.Run("medians and spread", func(t *testing.T) {
		got := results.Fold([]results.Result{
			rep(99, 30, 0.3, results.VerdictOK, "a"),
			rep(90, 10, 0.1, results.VerdictSaturated, "b"),
			rep(97, 20, 0.2, results.VerdictOK, "a"),
		}, results.DefaultSLOP99)
		if got.Throughput != 97 || got.Latency.P99 != 20 || got.AppCost.CPUMean != 0.2 {
			t.Errorf("medians: throughput %v, p99 %v, cpu %v; want 97, 20, 0.2", got.Throughput, got.Latency.P99, got.AppCost.CPUMean)
		}
		if got.Spread == nil || got.Spread.Throughput != 9 || got.Spread.P99 != 20 {
			t.Errorf("spread %+v, want throughput 9 and p99 20", got.Spread)
		}
		if len(got.Repeats) != 3 {
			t.Errorf("%d repeats listed, want 3", len(got.Repeats))
		}
		if got.RawFile != "raw/t7.bin" {
			t.Errorf("files from %s, want the median repeat's", got.RawFile)
		}
		if d := cmp.Diff([]string{"a", "b"}, got.Errors); d != "" {
			t.Errorf("errors (-want +got):\n%s", d)
		}
		if got.Verdict != results.VerdictOK || got.Reason != "1 of 3 repeats saturated" {
			t.Errorf("verdict %q (%q), want ok with a note on the saturated repeat", got.Verdict, got.Reason)
		}
	})
	t.Run("slow on the median", func(t *testing.T) {
		got := results.Fold([]results.Result{
			rep(99, 40, 0.3, results.VerdictOK),
			rep(98, 70, 0.1, results.VerdictSlow),
			rep(97, 60, 0.2, results.VerdictSlow),
		}, results.DefaultSLOP99)
		if got.Verdict != results.VerdictSlow || got.Reason != "p99 60.0 ms is over the 50ms SLO" {
			t.Errorf("verdict %q (%q), want slow on the median p99 of 60 ms", got.Verdict, got.Reason)
		}
	})
	t.Run("nothing measured", func(t *testing.T) {
		failed := results.Result{Verdict: results.VerdictFailed, Reason: "validation failed: x"}
		if got := results.Fold([]results.Result{failed, failed}, results.DefaultSLOP99); got.Verdict != results.VerdictFailed || got.Reason != failed.Reason {
			t.Errorf("Fold of failed repeats = %q %q", got.Verdict, got.Reason)
		}
	})
}
