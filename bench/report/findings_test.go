package report_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// ratio prints a/b as the findings do: two decimals, one from 10×.
func ratio(a, b float64) string {
	if a/b >= 10 {
		return fmt.Sprintf("%.1f×", a/b)
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// wantFindings fails unless every want starts one of the findings got.
func wantFindings(t *testing.T, got, want []string) {
	t.Helper()
	for _, w := range want {
		if !slices.ContainsFunc(got, func(f string) bool { return strings.HasPrefix(f, w) }) {
			t.Errorf("no finding starts with\n  %s\nfindings:\n  %s", w, strings.Join(got, "\n  "))
		}
	}
}

// TestFindingsAsMeasured reads the findings of the run newRun builds.
func TestFindingsAsMeasured(t *testing.T) {
	wantFindings(t, report.Findings(newRun(t)), []string{
		"light · read-one: all 3 apps held the target of 100 req/s.",
		"light · read-one: lowest p99 latency: rest at 2.00 ms; htmx " + ratio(2.8, 2.0) + " that (2.80 ms), graphql " + ratio(5.0, 2.0) + " that (5.00 ms).",
		"light · read-one: least app CPU per request: rest at 0.20 ms; htmx " + ratio(0.3, 0.2) + " that (0.30 ms), graphql " + ratio(0.5, 0.2) + " that (0.50 ms).",
		"high · read-one: rest and graphql held the target of 1200 req/s; htmx did not and queued. Most throughput: rest at 1199.9 req/s; 1.00× graphql (1199.9 req/s), " + ratio(1199.9, 850) + " htmx (850.0 req/s) — rest and graphql are within 5% of each other, too close to call.",
		"htmx did not hold read-one at 1200 req/s (high), so requests queued and its latencies measure the queue: throughput 850.0 req/s, 71% of the target; success 99.75%; it held 100 req/s (light).",
		"high · read-one: lowest p99 latency: rest at 2.00 ms; graphql " + ratio(5.0, 2.0) + " that (5.00 ms); not compared: htmx, which queued.",
		"Validation failed for htmx on write: " + validationProblem + ". That scenario was not measured on htmx.",
		"high · read-small on rest was skipped: interrupted.",
		"App CPU and memory of graphql could not be read in 1 of its 8 measured runs",
		"PostgreSQL CPU was not visible in 1 of 21 measured runs",
		"The load generator itself used 60% of one core on average, 30% of this 2-core machine",
	})
}

// TestFindings changes one figure of the run at a time and looks for the
// finding that the change makes.
func TestFindings(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, run *results.Run)
		want   []string
	}{
		{
			name: "graphql gets faster",
			change: func(t *testing.T, run *results.Run) {
				find(t, run, "light", "read-one", "graphql").Latency.P99 = 1.25
			},
			want: []string{
				"light · read-one: lowest p99 latency: graphql at 1.25 ms; rest " + ratio(2.0, 1.25) + " that (2.00 ms), htmx " + ratio(2.8, 1.25) + " that (2.80 ms).",
			},
		},
		{
			name: "htmx gets cheaper",
			change: func(t *testing.T, run *results.Run) {
				find(t, run, "light", "read-one", "htmx").AppCost.CPUMsPerRequest = 0.05
			},
			want: []string{
				"light · read-one: least app CPU per request: htmx at 0.05 ms; rest " + ratio(0.2, 0.05) + " that (0.20 ms), graphql " + ratio(0.5, 0.05) + " that (0.50 ms).",
			},
		},
		{
			name: "graphql saturates too",
			change: func(t *testing.T, run *results.Run) {
				r := find(t, run, "high", "read-one", "graphql")
				r.Verdict, r.Throughput = results.VerdictSaturated, 600
			},
			want: []string{
				"high · read-one: rest held the target of 1200 req/s; graphql and htmx did not and queued. Most throughput: rest at 1199.9 req/s; " + ratio(1199.9, 850) + " htmx (850.0 req/s), " + ratio(1199.9, 600) + " graphql (600.0 req/s).",
				"graphql did not hold read-one at 1200 req/s (high), so requests queued and its latencies measure the queue: throughput 600.0 req/s, 50% of the target",
			},
		},
		{
			name: "graphql is slow",
			change: func(t *testing.T, run *results.Run) {
				r := find(t, run, "light", "read-one", "graphql")
				r.Verdict, r.Latency.P99 = results.VerdictSlow, 80
			},
			want: []string{
				"light · read-one: all 3 apps held the target of 100 req/s; over the p99 SLO of 50 ms: graphql.",
				"light · read-one: lowest p99 latency: rest at 2.00 ms; htmx " + ratio(2.8, 2.0) + " that (2.80 ms), graphql " + ratio(80, 2.0) + " that (80.0 ms).",
			},
		},
		{
			name: "rest starts cold",
			change: func(t *testing.T, run *results.Run) {
				r := find(t, run, "light", "read-one", "rest")
				r.Timeline = timeline(2, 5, false)
				r.Timeline[0].P50, r.Timeline[1].P50, r.Timeline[2].P50 = 600, 400, 8
			},
			want: []string{"rest on read-one (light) began its measured window with a queue the warm-up left: a p50 of 600 ms in its first second, 2.00 ms once the queue had drained after 3 s."},
		},
		{
			name: "load generator falls behind",
			change: func(t *testing.T, run *results.Run) {
				find(t, run, "high", "read-small", "graphql").AchievedRate = 1000
			},
			want: []string{"The load generator sent only 1000.0 of the 1200 req/s target to graphql on read-small (high), 83%"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := newRun(t)
			tt.change(t, run)
			wantFindings(t, report.Findings(run), tt.want)
		})
	}
}

// TestFindingsNeverCompareQueuedLatency is the case of issue 11: a graphql
// that did not hold 1200 req/s had a p99 of 3089 ms, the length of its
// queue, and the findings compared it with rest's as "687× that".
func TestFindingsNeverCompareQueuedLatency(t *testing.T) {
	run := newRun(t)
	g := find(t, run, "high", "read-one", "graphql")
	g.Verdict, g.Throughput, g.AchievedRate = results.VerdictSaturated, 731.4, 1199.9
	g.Latency = results.Latency{Mean: 1500, P50: 1400, P90: 2800, P95: 2950, P99: 3089, Max: 4100}
	find(t, run, "high", "read-one", "rest").Latency.P99 = 4.5
	got := report.Findings(run)
	for _, f := range got {
		if strings.Contains(f, "3089") || strings.Contains(f, "687") {
			t.Errorf("a finding quotes the queued p99 of graphql: %s", f)
		}
		if strings.Contains(f, "high · read-one: lowest p99") && strings.Contains(f, "graphql ") && !strings.Contains(f, "not compared: graphql and htmx, which queued") {
			t.Errorf("graphql's queued latency is ranked: %s", f)
		}
	}
	want := "graphql did not hold read-one at 1200 req/s (high), so requests queued and its latencies measure the queue: throughput 731.4 req/s"
	if !slices.ContainsFunc(got, func(f string) bool { return strings.HasPrefix(f, want) }) {
		t.Errorf("no finding starts with\n  %s\nfindings:\n  %s", want, strings.Join(got, "\n  "))
	}
}

// TestFindingsStartQueueOnlyWhenItDrained names a queue at the window's
// start only when it was one (far above the steady p50 and the SLO) and it
// drained in the first half: a queue that lasts is a saturation, said
// elsewhere, and a slow first second under the SLO is no queue.
func TestFindingsStartQueueOnlyWhenItDrained(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *results.Result)
	}{
		{"as measured", func(r *results.Result) {}},
		{"under the SLO", func(r *results.Result) { r.Timeline[0].P50 = 40 }},
		{"not ten times the steady p50", func(r *results.Result) {
			for i := range r.Timeline {
				r.Timeline[i].P50 = 60
			}
			r.Timeline[0].P50 = 500
		}},
		{"never drained in the first half", func(r *results.Result) {
			for i := range r.Timeline[:len(r.Timeline)/2] {
				r.Timeline[i].P50 = 600
			}
		}},
		{"a window too short to tell", func(r *results.Result) {
			r.Timeline = r.Timeline[:5]
			r.Timeline[0].P50 = 600
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := newRun(t)
			r := find(t, run, "light", "read-one", "rest")
			r.Timeline = timeline(2, 5, false)
			tt.change(r)
			for _, f := range report.Findings(run) {
				if strings.Contains(f, "began its measured window with a queue") {
					t.Errorf("finding %q", f)
				}
			}
		})
	}
}
