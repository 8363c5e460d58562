package diff_test

import (
	"math"
	"strings"
	"testing"

	"crudbench/bench/diff"
	"crudbench/bench/results"
)

// result is a measured read-one run of rest with one repeat per p99 given
// (none for a single run), the other figures fixed.
func result(verdict string, p99s ...float64) results.Result {
	r := results.Result{
		Profile: "light", Scenario: "read-one", App: "rest", Verdict: verdict,
		TargetRate: 100, AchievedRate: 100, Throughput: 100, Requests: 1500, SuccessRatio: 1,
		AppCost: results.ProcessCost{Available: true, CPUMean: 0.2, CPUMsPerRequest: 2, RSSMaxMB: 30},
	}
	r.Latency.P50 = 1
	if len(p99s) == 1 {
		r.Latency.P99 = p99s[0]
		return r
	}
	for _, p := range p99s {
		r.Repeats = append(r.Repeats, results.RepeatSummary{
			AchievedRate: 100, Throughput: 100, SuccessRatio: 1, P50: 1, P99: p, CPUMean: 0.2, CPUMsPerRequest: 2, RSSMaxMB: 30,
		})
	}
	r.Latency.P99 = p99s[len(p99s)/2]
	return r
}

func run(rs ...results.Result) *results.Run {
	return &results.Run{Results: rs}
}

// rowOf finds the row of a metric.
func rowOf(t *testing.T, rep diff.Report, m diff.Metric) diff.Row {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Metric == m {
			return r
		}
	}
	t.Fatalf("no %s row in %+v", m.Name, rep.Rows)
	return diff.Row{}
}

func TestP99Rules(t *testing.T) {
	tests := []struct {
		name        string
		old, new    []float64
		test        string
		mark        string
		tested      bool
		significant bool
		regressed   bool
		improved    bool
	}{
		{name: "single runs, worse past the threshold", old: []float64{10}, new: []float64{12}, mark: "+20.0%", regressed: true},
		{name: "single runs, worse under the threshold", old: []float64{10}, new: []float64{10.5}, mark: "+5.0%"},
		{name: "single runs, better", old: []float64{10}, new: []float64{5}, mark: "-50.0%", improved: true},
		{name: "four repeats, apart", old: []float64{9.9, 10, 10, 10.1}, new: []float64{19, 20, 20, 21}, mark: "+100.0%", tested: true, significant: true, regressed: true},
		{name: "four repeats, overlapping", old: []float64{10, 14, 9, 12}, new: []float64{11, 13, 10, 12.5}, mark: "~", tested: true},
		// Three a side: the U test's smallest p-value is 0.1.
		{name: "three repeats, apart, U test", old: []float64{9.9, 10, 10.1}, new: []float64{19, 20, 21}, mark: "~", tested: true},
		{name: "three repeats, apart, t-test", old: []float64{9.9, 10, 10.1}, new: []float64{19, 20, 21}, test: diff.TestT, mark: "+100.0%", tested: true, significant: true, regressed: true},
		{name: "four repeats, significant but small", old: []float64{10, 10.01, 10.02, 10.03}, new: []float64{10.2, 10.21, 10.22, 10.23}, mark: "+2.0%", tested: true, significant: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := diff.DefaultOptions
			if tt.test != "" {
				opt.Test = tt.test
			}
			rep := diff.Compare(run(result(results.VerdictOK, tt.old...)), run(result(results.VerdictOK, tt.new...)), opt)
			r := rowOf(t, rep, diff.P99)
			if r.Mark() != tt.mark || r.Tested != tt.tested || r.Significant != tt.significant || r.Regressed != tt.regressed || r.Improved != tt.improved {
				t.Errorf("mark %q, tested %v (p=%.3f), significant %v, regressed %v, improved %v; want %q, %v, %v, %v, %v",
					r.Mark(), r.Tested, r.P, r.Significant, r.Regressed, r.Improved, tt.mark, tt.tested, tt.significant, tt.regressed, tt.improved)
			}
			if got := len(rep.Regressions()) > 0; got != tt.regressed {
				t.Errorf("Regressions() = %q, want regressed %v", rep.Regressions(), tt.regressed)
			}
		})
	}
}

func TestThroughputHigherIsBetter(t *testing.T) {
	o, n := result(results.VerdictOK, 10), result(results.VerdictOK, 10)
	n.Throughput = 80
	r := rowOf(t, diff.Compare(run(o), run(n), diff.DefaultOptions), diff.Throughput)
	if !r.Regressed || r.Improved || math.Abs(r.Delta+0.2) > 1e-9 {
		t.Errorf("throughput 100 → 80: delta %v, regressed %v, improved %v; want -20%%, a regression", r.Delta, r.Regressed, r.Improved)
	}
}

func TestVerdictChanges(t *testing.T) {
	tests := []struct {
		name      string
		old, new  string
		what      string
		regressed bool
	}{
		{"held, then queued", results.VerdictOK, results.VerdictSaturated, "verdict ok → saturated", true},
		{"held, then failed validation", results.VerdictSlow, results.VerdictFailed, "verdict slow → failed", true},
		{"queued, then held", results.VerdictSaturated, results.VerdictOK, "verdict saturated → ok", false},
		{"ok, then slow", results.VerdictOK, results.VerdictSlow, "verdict ok → slow", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := diff.Compare(run(result(tt.old, 10)), run(result(tt.new, 10)), diff.DefaultOptions)
			if len(rep.Changes) != 1 || rep.Changes[0].What != tt.what || rep.Changes[0].Regressed != tt.regressed {
				t.Fatalf("changes %+v, want one: %q, regressed %v", rep.Changes, tt.what, tt.regressed)
			}
		})
	}
}

func TestUnmatchedRuns(t *testing.T) {
	o, n := result(results.VerdictOK, 10), result(results.VerdictOK, 10)
	n.App = "graphql"
	rep := diff.Compare(run(o), run(n), diff.DefaultOptions)
	want := []diff.Change{
		{Key: "light · read-one · rest", What: "only in old"},
		{Key: "light · read-one · graphql", What: "only in new"},
	}
	if len(rep.Rows) != 0 || len(rep.Changes) != 2 || rep.Changes[0] != want[0] || rep.Changes[1] != want[1] {
		t.Errorf("rows %+v, changes %+v; want no rows and %+v", rep.Rows, rep.Changes, want)
	}
	if len(rep.Regressions()) != 0 {
		t.Errorf("regressions %q: a run only one side has is not one", rep.Regressions())
	}
}

func TestCapacities(t *testing.T) {
	capacity := func(status string, rate, perCore float64) *results.Run {
		return &results.Run{Capacities: []results.Capacity{{Scenario: "read-one", App: "htmx", Status: status, Rate: rate, PerCore: perCore}}}
	}
	rep := diff.Compare(capacity(results.CapacityFound, 900, 1000), capacity(results.CapacityFound, 400, 450), diff.DefaultOptions)
	if r := rowOf(t, rep, diff.Capacity); !r.Regressed || r.Mark() != "-55.6%" {
		t.Errorf("capacity 900 → 400: %s, regressed %v", r.Mark(), r.Regressed)
	}
	if r := rowOf(t, rep, diff.PerCore); !r.Regressed {
		t.Errorf("capacity per core 1000 → 450 not a regression")
	}
	rep = diff.Compare(capacity(results.CapacityFound, 900, 1000), capacity(results.CapacityNone, 0, 0), diff.DefaultOptions)
	if len(rep.Changes) != 1 || !rep.Changes[0].Regressed {
		t.Errorf("capacity found → none: changes %+v, want one regression", rep.Changes)
	}
	held := capacity(results.CapacityFound, 900, 1000)
	held.Capacities[0].Held = true
	rep = diff.Compare(held, capacity(results.CapacityFound, 950, 1050), diff.DefaultOptions)
	if want := (diff.Change{Key: "capacity · read-one · htmx", What: "capacity confirmed → unconfirmed", Regressed: true}); len(rep.Changes) != 1 || rep.Changes[0] != want {
		t.Errorf("a capacity that lost its confirmation: changes %+v, want %+v", rep.Changes, want)
	}
	if r := rowOf(t, rep, diff.Capacity); r.Regressed {
		t.Errorf("capacity 900 → 950 regressed")
	}
	rep = diff.Compare(capacity(results.CapacityFound, 900, 1000), held, diff.DefaultOptions)
	if len(rep.Changes) != 1 || rep.Changes[0].What != "capacity unconfirmed → confirmed" || rep.Changes[0].Regressed {
		t.Errorf("a capacity that gained its confirmation: changes %+v, want one that is not a regression", rep.Changes)
	}
}

// The repeats' CPU per request, from files written before the repeats
// carried it, is their CPU mean over their throughput.
func TestCPUPerRequestOfOldRepeats(t *testing.T) {
	o := result(results.VerdictOK, 10, 10, 10)
	for i := range o.Repeats {
		o.Repeats[i].CPUMsPerRequest = 0
	}
	rep := diff.Compare(run(o), run(result(results.VerdictOK, 10, 10, 10)), diff.DefaultOptions)
	if r := rowOf(t, rep, diff.CPUPerReq); r.Old != 2 || r.New != 2 || r.Regressed {
		t.Errorf("CPU per request %v → %v (regressed %v), want 2 → 2", r.Old, r.New, r.Regressed)
	}
}

func TestWarnings(t *testing.T) {
	three := diff.Compare(run(result(results.VerdictOK, 1, 2, 3)), run(result(results.VerdictOK, 1, 2, 3)), diff.DefaultOptions)
	if !strings.Contains(strings.Join(three.Warnings, "\n"), "smallest p-value is 0.100") {
		t.Errorf("three repeats under the U test: warnings %q, want the smallest p-value named", three.Warnings)
	}
	single := diff.Compare(run(result(results.VerdictOK, 1)), run(result(results.VerdictOK, 1)), diff.DefaultOptions)
	if !strings.Contains(strings.Join(single.Warnings, "\n"), "not tested for significance") {
		t.Errorf("single runs: warnings %q, want them said untested", single.Warnings)
	}
	o, n := run(result(results.VerdictOK, 1)), run(result(results.VerdictOK, 1))
	o.Environment.CPUCount, n.Environment.CPUCount = 2, 8
	if w := diff.Compare(o, n, diff.DefaultOptions).Warnings; !strings.Contains(strings.Join(w, "\n"), "different machines") {
		t.Errorf("2 then 8 CPUs: warnings %q, want different machines", w)
	}
}

func TestFormats(t *testing.T) {
	rep := diff.Compare(run(result(results.VerdictOK, 9.9, 10, 10, 10.1)), run(result(results.VerdictOK, 19, 20, 20, 21)), diff.DefaultOptions)
	var text, md strings.Builder
	if err := rep.WriteText(&text, "old", "new"); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md, "old", "new"); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		for _, want := range []string{"p99 (ms)", "light · read-one · rest", "+100.0%", "p=0.029 n=4+4 (U test) regressed", "1 regression(s) past 10%"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s output lacks %q:\n%s", name, want, out)
			}
		}
	}
	if !strings.Contains(md.String(), "| light · read-one · rest | 10.0 | 20.0 | **+100.0%** |") {
		t.Errorf("markdown row not as expected:\n%s", md.String())
	}
}

// A machine-bound capacity is a lower bound of the app's: compared with
// it, only a change the bound makes certain is a regression or an
// improvement, and the output says which figures are bounds.
func TestMachineBoundCapacities(t *testing.T) {
	capacity := func(rate float64, stop string) *results.Run {
		return &results.Run{Capacities: []results.Capacity{{Scenario: "read-one", App: "rest", Status: results.CapacityFound,
			Rate: rate, PerCore: rate, Held: true, StopReason: stop}}}
	}
	const bound, own = results.StopPostgresCPU, results.StopAppCPU
	tests := []struct {
		name                string
		old, new            *results.Run
		regressed, improved bool
		oldBound, newBound  string
		change              string
	}{
		{"an exact figure falls below a bound", capacity(916, bound), capacity(700, own), true, false, bound, "", "capacity stopped by postgres-cpu (machine-bound) → app-cpu"},
		{"a bound falls below an exact figure", capacity(916, own), capacity(700, bound), false, false, "", bound, "capacity stopped by app-cpu → postgres-cpu (machine-bound)"},
		{"an exact figure rises over a bound", capacity(700, bound), capacity(916, own), false, false, bound, "", "capacity stopped by postgres-cpu (machine-bound) → app-cpu"},
		{"a bound rises over an exact figure", capacity(700, own), capacity(916, bound), false, true, "", bound, "capacity stopped by app-cpu → postgres-cpu (machine-bound)"},
		{"a bound falls", capacity(916, bound), capacity(700, bound), false, false, bound, bound, ""},
		{"a bound rises", capacity(700, bound), capacity(916, bound), false, false, bound, bound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := diff.Compare(tt.old, tt.new, diff.DefaultOptions)
			for _, m := range []diff.Metric{diff.Capacity, diff.PerCore} {
				r := rowOf(t, rep, m)
				if r.Regressed != tt.regressed || r.Improved != tt.improved || r.OldBound != tt.oldBound || r.NewBound != tt.newBound {
					t.Errorf("%s: regressed %v, improved %v, bounds %q → %q; want %v, %v, %q → %q",
						m.Name, r.Regressed, r.Improved, r.OldBound, r.NewBound, tt.regressed, tt.improved, tt.oldBound, tt.newBound)
				}
			}
			var changes []string
			for _, c := range rep.Changes {
				changes = append(changes, c.What)
			}
			if got := strings.Join(changes, "; "); got != tt.change {
				t.Errorf("changes %q, want %q", got, tt.change)
			}
			if !strings.Contains(strings.Join(rep.Warnings, "\n"), "capacity · read-one · rest compares lower bounds") {
				t.Errorf("warnings %q, want the lower bounds named", rep.Warnings)
			}
		})
	}
	var text strings.Builder
	if err := diff.Compare(capacity(916, bound), capacity(700, own), diff.DefaultOptions).WriteText(&text, "old", "new"); err != nil {
		t.Fatal(err)
	}
	if want := "≥ 916  700  -23.6%  n=1+1, not tested regressed; old a lower bound (machine-bound: postgres-cpu)"; !strings.Contains(text.String(), want) {
		t.Errorf("text output lacks %q:\n%s", want, text.String())
	}
}

// searches is a run with the capacity of rest's read-one searched once per
// rate given, each confirmed and stopped by the app's CPU.
func searches(rates ...float64) *results.Run {
	var each []results.Capacity
	for i, r := range rates {
		each = append(each, results.Capacity{Scenario: "read-one", App: "rest", Status: results.CapacityFound,
			Rate: r, Held: true, StopReason: results.StopAppCPU, Search: i + 1})
	}
	return &results.Run{Capacities: []results.Capacity{results.FoldCapacities(each)}}
}

// Repeated capacity searches are compared with the significance test,
// by the rates their medians were taken over; a side with a single search
// cannot be tested, and the warnings say which capacities were not.
func TestRepeatedCapacities(t *testing.T) {
	tests := []struct {
		name                string
		old, new            *results.Run
		opt                 diff.Options
		oldN, newN          int
		tested, significant bool
		regressed           bool
		warning             string
	}{
		{"four searches a side, a clear fall", searches(1000, 1010, 990, 1005), searches(800, 810, 790, 805), diff.DefaultOptions,
			4, 4, true, true, true, ""},
		{"four searches a side, noise", searches(1000, 1100, 900, 1050), searches(950, 1080, 910, 1000), diff.DefaultOptions,
			4, 4, true, false, false, ""},
		// Node's capacities moved 2.7× between searches: a median 20%
		// lower is not told from that.
		{"a wide spread hides a fall", searches(383, 703, 512, 650), searches(400, 690, 420, 380), diff.DefaultOptions,
			4, 4, true, false, false, ""},
		{"three a side under the U test", searches(1000, 1010, 990), searches(800, 810, 790), diff.DefaultOptions,
			3, 3, true, false, false, "with 3 searches a side the U test's smallest p-value is 0.100"},
		{"three a side under the t-test", searches(1000, 1010, 990), searches(800, 810, 790), diff.Options{Alpha: 0.05, Threshold: 0.10, Test: diff.TestT},
			3, 3, true, true, true, ""},
		{"one side a single search", searches(1000), searches(800, 810, 790), diff.DefaultOptions,
			1, 3, false, false, true, "capacities with a single search on a side cannot be tested for significance: capacity · read-one · rest (old 1 search, new 3 searches)"},
		{"two a side", searches(1000, 1010), searches(800, 810), diff.DefaultOptions,
			2, 2, false, false, true, "capacities with fewer than 3 searches a side are not tested for significance: capacity · read-one · rest (old 2 searches, new 2 searches)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := diff.Compare(tt.old, tt.new, tt.opt)
			r := rowOf(t, rep, diff.Capacity)
			if r.OldN != tt.oldN || r.NewN != tt.newN || r.Tested != tt.tested || r.Significant != tt.significant || r.Regressed != tt.regressed {
				t.Errorf("n=%d+%d, tested %v, significant %v (p=%.3f), regressed %v; want n=%d+%d, %v, %v, %v",
					r.OldN, r.NewN, r.Tested, r.Significant, r.P, r.Regressed, tt.oldN, tt.newN, tt.tested, tt.significant, tt.regressed)
			}
			warnings := strings.Join(rep.Warnings, "\n")
			if tt.warning != "" && !strings.Contains(warnings, tt.warning) {
				t.Errorf("warnings %q, want %q", warnings, tt.warning)
			}
			if tt.warning == "" && strings.Contains(warnings, "capacit") {
				t.Errorf("warnings %q, want none about capacities", warnings)
			}
		})
	}
}

// An unconfirmed search in a minority is no capacity and is not compared;
// the searches the median stands on are.
func TestRepeatedCapacitiesLeaveOutUnconfirmed(t *testing.T) {
	old := searches(1000, 1010, 990, 1005)
	c := &old.Capacities[0]
	c.Searches = append(c.Searches, results.Capacity{Scenario: "read-one", App: "rest", Status: results.CapacityFound, Rate: 2000, Search: 5})
	*c = results.FoldCapacities(c.Searches)
	rep := diff.Compare(old, searches(1000, 1010, 990, 1005), diff.DefaultOptions)
	if r := rowOf(t, rep, diff.Capacity); r.OldN != 4 || r.Old != 1002.5 {
		t.Errorf("old n=%d, center %v; want the 4 confirmed searches, median 1002.5", r.OldN, r.Old)
	}
}
