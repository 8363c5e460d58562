// Package diff compares two benchmark runs result by result: the question
// a team asks after tuning its stack — did it get better, and is that more
// than noise?
//
// Runs are matched by (profile, scenario, app), capacities by (scenario,
// app). Each figure is compared as a center (the median over repeats; for
// a capacity, over the searches its median was taken over, see
// results.FoldCapacities) and,
// when both runs repeated it often enough, tested for significance with
// the test benchstat uses (golang.org/x/perf/benchmath): a change the test
// cannot tell from noise is marked "~". A regression is a change for the
// worse of at least Options.Threshold that is significant, or that could
// not be tested (single runs); a run that held its rate before and no
// longer does is a regression whatever its figures. A machine-bound
// capacity (results.Capacity.MachineBound) is a lower bound of the app's:
// compared with it, only a change the bound makes certain counts.
package diff

import (
	"fmt"
	"math"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"

	"crudbench/bench/results"
)

// MinRepeats is the fewest repeats on each side for a significance test:
// fewer than three values say nothing about a spread.
const MinRepeats = 3

// Tests a comparison can use.
const (
	// TestU is the Mann–Whitney U test on the medians (benchstat's
	// default): it assumes nothing about the distribution, so one spiky
	// repeat cannot make a change look significant, but with n repeats a
	// side its smallest p-value is 2/C(2n, n): 0.1 for three, 0.029 for
	// four. Below four repeats it never rejects at α = 0.05.
	TestU = "u"
	// TestT is Welch's two-sample t-test on the means: each repeat's
	// figure is already an aggregate over thousands of requests, close
	// enough to normal for it to find a clear change from three repeats.
	TestT = "t"
)

// Options tune Compare.
type Options struct {
	// Alpha is the significance level (0.05).
	Alpha float64
	// Threshold is the relative change for the worse that counts as a
	// regression (0.10: 10%).
	Threshold float64
	// Test is TestU or TestT.
	Test string
}

// DefaultOptions are benchstat's alpha, its test, and a 10% threshold:
// on a shared two-core machine identical runs differ by a few percent.
var DefaultOptions = Options{Alpha: 0.05, Threshold: 0.10, Test: TestU}

// Metric is one figure compared between the runs.
type Metric struct {
	Name string // "throughput"
	Unit string // "req/s"
	// HigherIsBetter says which direction is an improvement.
	HigherIsBetter bool
}

// The metrics of a measured run, in the order they are shown, and of a
// capacity search.
var (
	Throughput = Metric{"throughput", "req/s", true}
	P50        = Metric{"p50", "ms", false}
	P99        = Metric{"p99", "ms", false}
	CPUPerReq  = Metric{"app CPU per request", "CPU-ms", false}
	RSS        = Metric{"app RSS max", "MB", false}
	Capacity   = Metric{"capacity", "req/s", true}
	PerCore    = Metric{"capacity per core", "req/s", true}
)

// Row is one figure of one run, old against new.
type Row struct {
	Key    string // "light · read-one · rest", or "capacity · read-one · rest"
	Metric Metric
	// Old and New are the centers: the median over the repeats (the
	// mean under TestT), or the single value.
	Old, New float64
	// OldN and NewN count the values behind each center.
	OldN, NewN int
	// Delta is (New − Old) / Old; NaN when Old is zero.
	Delta float64
	// Tested says a significance test ran (both sides had MinRepeats);
	// P is its p-value and Significant whether P < Alpha.
	Tested      bool
	P           float64
	Significant bool
	// Regressed says the change counts as a regression (see the package
	// comment); Improved the same for the better.
	Regressed, Improved bool
	// OldBound and NewBound are the stop reason of a capacity that was
	// machine-bound on that side, whose figure is then a lower bound of
	// the app's; empty for an exact figure and for every other metric.
	OldBound, NewBound string
}

// Mark is how the row's change is shown: "~" when a test could not tell
// it from noise, otherwise the signed percentage.
func (r Row) Mark() string {
	if r.Tested && !r.Significant {
		return "~"
	}
	if math.IsNaN(r.Delta) {
		return "n/a"
	}
	return fmt.Sprintf("%+.1f%%", 100*r.Delta)
}

// Change is a run whose state changed or that only one side has.
type Change struct {
	Key string
	// What says what changed: "verdict ok → saturated", "only in old".
	What string
	// Regressed is set when the run held its rate (or had a capacity)
	// before and no longer does.
	Regressed bool
}

// Report is the whole comparison.
type Report struct {
	Options Options
	Rows    []Row
	Changes []Change
	// Warnings say what limits the comparison (too few repeats for the
	// test to find anything, different machines).
	Warnings []string
}

// Regressions lists the keys and metrics that regressed, for the exit
// status and the summary line.
func (r Report) Regressions() []string {
	var out []string
	for _, c := range r.Changes {
		if c.Regressed {
			out = append(out, c.Key+": "+c.What)
		}
	}
	for _, row := range r.Rows {
		if row.Regressed {
			out = append(out, fmt.Sprintf("%s: %s %s", row.Key, row.Metric.Name, row.Mark()))
		}
	}
	return out
}

// Compare compares new with old.
func Compare(old, new *results.Run, opt Options) Report {
	rep := Report{Options: opt}
	rep.Warnings = environmentWarnings(old, new)
	resultKey := func(r results.Result) string { return r.Profile + " · " + r.Scenario + " · " + r.App }
	matchRuns(&rep, old.Results, new.Results, resultKey, rep.compareResults)
	capacityKey := func(c results.Capacity) string { return "capacity · " + c.Scenario + " · " + c.App }
	matchRuns(&rep, old.Capacities, new.Capacities, capacityKey, rep.compareCapacities)
	rep.Warnings = append(rep.Warnings, rep.repeatWarnings()...)
	rep.Warnings = append(rep.Warnings, rep.searchWarnings()...)
	return rep
}

// matchRuns pairs the runs of old and new by key, in old's order and then
// new's, and compares each pair with both; a run only one side has is a
// Change.
func matchRuns[V any](rep *Report, old, new []V, key func(V) string, both func(key string, o, n V)) {
	oldByKey, order := index(old, key)
	newByKey, newOrder := index(new, key)
	for _, k := range newOrder {
		if _, ok := oldByKey[k]; !ok {
			order = append(order, k)
		}
	}
	for _, k := range order {
		o, okOld := oldByKey[k]
		n, okNew := newByKey[k]
		switch {
		case !okOld:
			rep.Changes = append(rep.Changes, Change{Key: k, What: "only in new"})
		case !okNew:
			rep.Changes = append(rep.Changes, Change{Key: k, What: "only in old"})
		default:
			both(k, o, n)
		}
	}
}

// index maps each run to its key, and lists the keys in the runs' order.
func index[V any](runs []V, key func(V) string) (map[string]V, []string) {
	m := make(map[string]V, len(runs))
	var order []string
	for _, r := range runs {
		m[key(r)] = r
		order = append(order, key(r))
	}
	return m, order
}

// compareResults compares one measured run, or records why it cannot.
func (rep *Report) compareResults(key string, o, n results.Result) {
	if !o.Measured() || !n.Measured() {
		if o.Verdict != n.Verdict {
			rep.Changes = append(rep.Changes, Change{Key: key, What: "verdict " + o.Verdict + " → " + n.Verdict, Regressed: o.Measured()})
		}
		return
	}
	if o.HeldRate() && !n.HeldRate() {
		rep.Changes = append(rep.Changes, Change{Key: key, What: "verdict " + o.Verdict + " → " + n.Verdict, Regressed: true})
	} else if o.Verdict != n.Verdict {
		rep.Changes = append(rep.Changes, Change{Key: key, What: "verdict " + o.Verdict + " → " + n.Verdict})
	}
	for _, m := range []Metric{Throughput, P50, P99, CPUPerReq, RSS} {
		ov, nv := valuesOf(o, m), valuesOf(n, m)
		if ov == nil || nv == nil {
			continue
		}
		rep.Rows = append(rep.Rows, rep.row(key, m, ov, nv))
	}
}

// compareCapacities compares one capacity search.
func (rep *Report) compareCapacities(key string, o, n results.Capacity) {
	had := func(c results.Capacity) bool {
		return c.Status == results.CapacityFound || c.Status == results.CapacityCapped
	}
	if !had(o) || !had(n) {
		if o.Status != n.Status {
			rep.Changes = append(rep.Changes, Change{Key: key, What: "capacity " + o.Status + " → " + n.Status, Regressed: had(o)})
		}
		return
	}
	// A rate no full-length run held stands on the short probes alone:
	// a capacity that lost its confirmation is a change of its own,
	// whatever the rates say.
	if o.Held != n.Held {
		rep.Changes = append(rep.Changes, Change{Key: key, What: "capacity " + confirmed(o) + " → " + confirmed(n), Regressed: o.Held})
	}
	if o.MachineBound() != n.MachineBound() {
		rep.Changes = append(rep.Changes, Change{Key: key, What: "capacity stopped by " + stopText(o) + " → " + stopText(n)})
	}
	// Repeated searches are compared by the rates their medians were
	// taken over (results.FoldCapacities), with the test; a single
	// search by its rate, untested.
	rep.Rows = append(rep.Rows, bounded(rep.row(key, Capacity, o.CountedRates(), n.CountedRates()), o, n))
	if o.PerCore > 0 && n.PerCore > 0 {
		rep.Rows = append(rep.Rows, bounded(rep.row(key, PerCore, []float64{o.PerCore}, []float64{n.PerCore}), o, n))
	}
	if o.MachineBound() || n.MachineBound() {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s compares lower bounds: a figure marked ≥ is machine-bound — PostgreSQL, the load generator or other processes, not the app, stopped its search — so the app's capacity is at least that; a lower bound that falls is no regression, and a rise over one no improvement.", key))
	}
}

// bounded keeps of r, a row of capacities o and n, only the changes their
// bounds make certain: a new figure that is a lower bound has not
// regressed for being lower (the app may do more), and a rise over an old
// lower bound is no improvement (the app may have done as much).
func bounded(r Row, o, n results.Capacity) Row {
	if o.MachineBound() {
		r.OldBound, r.Improved = o.BoundReason(), false
	}
	if n.MachineBound() {
		r.NewBound, r.Regressed = n.BoundReason(), false
	}
	return r
}

// stopText is what stopped c's search, marked when it was the machine's
// other side: "postgres-cpu (machine-bound)".
func stopText(c results.Capacity) string {
	if reason := c.BoundReason(); reason != "" {
		return reason + " (machine-bound)"
	}
	return c.StopReason
}

// confirmed says whether a full-length run held c's rate.
func confirmed(c results.Capacity) string {
	if c.Held {
		return "confirmed"
	}
	return "unconfirmed"
}

// row compares the values of one metric.
func (rep *Report) row(key string, m Metric, old, new []float64) Row {
	r := Row{Key: key, Metric: m, OldN: len(old), NewN: len(new)}
	thresholds := benchmath.Thresholds{CompareAlpha: rep.Options.Alpha}
	so, sn := benchmath.NewSample(old, &thresholds), benchmath.NewSample(new, &thresholds)
	assume := assumption(rep.Options.Test)
	r.Old, r.New = assume.Summary(so, 0.95).Center, assume.Summary(sn, 0.95).Center
	r.Delta = math.NaN()
	if r.Old != 0 {
		r.Delta = (r.New - r.Old) / r.Old
	}
	if len(old) >= MinRepeats && len(new) >= MinRepeats {
		c := assume.Compare(so, sn)
		r.Tested, r.P, r.Significant = true, c.P, c.P < rep.Options.Alpha
	}
	worse := r.Delta < 0
	if !m.HigherIsBetter {
		worse = r.Delta > 0
	}
	past := !math.IsNaN(r.Delta) && math.Abs(r.Delta) >= rep.Options.Threshold
	counts := past && (!r.Tested || r.Significant)
	r.Regressed, r.Improved = counts && worse, counts && !worse
	return r
}

// assumption is the benchmath assumption behind a test's name.
func assumption(test string) benchmath.Assumption {
	if test == TestT {
		return benchmath.AssumeNormal
	}
	return benchmath.AssumeNothing
}

// valuesOf is a metric's values in a result: one per repeat when it has
// repeats, else its single figure; nil when the result does not have it
// (an app whose CPU or memory was not visible).
func valuesOf(r results.Result, m Metric) []float64 {
	pick := func(single float64, each func(results.RepeatSummary) float64) []float64 {
		if len(r.Repeats) == 0 {
			return []float64{single}
		}
		vs := make([]float64, len(r.Repeats))
		for i, s := range r.Repeats {
			vs[i] = each(s)
		}
		return vs
	}
	switch m {
	case Throughput:
		return pick(r.Throughput, func(s results.RepeatSummary) float64 { return s.Throughput })
	case P50:
		return pick(r.Latency.P50, func(s results.RepeatSummary) float64 { return s.P50 })
	case P99:
		return pick(r.Latency.P99, func(s results.RepeatSummary) float64 { return s.P99 })
	case CPUPerReq:
		if !r.AppCost.Available || r.AppCost.CPUMsPerRequest <= 0 {
			return nil
		}
		return pick(r.AppCost.CPUMsPerRequest, cpuMsPerRequest)
	case RSS:
		if !r.AppCost.Available || r.AppCost.RSSMaxMB <= 0 {
			return nil
		}
		return pick(r.AppCost.RSSMaxMB, func(s results.RepeatSummary) float64 { return s.RSSMaxMB })
	}
	return nil
}

// cpuMsPerRequest is a repeat's app CPU per successful request: recorded
// since the repeats carry it, and before that the CPU's mean over the
// throughput, which divides the same CPU by the same successes over
// windows a few milliseconds apart.
func cpuMsPerRequest(s results.RepeatSummary) float64 {
	if s.CPUMsPerRequest > 0 {
		return s.CPUMsPerRequest
	}
	if s.Throughput <= 0 {
		return 0
	}
	return 1000 * s.CPUMean / s.Throughput
}

// repeatWarnings says when the repeats were too few for the chosen test
// to find any change.
func (rep *Report) repeatWarnings() []string {
	least := math.MaxInt
	for _, r := range rep.Rows {
		if r.Metric == Capacity || r.Metric == PerCore {
			continue
		}
		least = min(least, r.OldN, r.NewN)
	}
	switch {
	case least == math.MaxInt:
		return nil
	case least < MinRepeats:
		return []string{fmt.Sprintf("single runs (fewer than %d repeats a side): changes are not tested for significance; any change for the worse of %.0f%% or more counts as a regression. Run both with -repeat %d or more to test them.", MinRepeats, 100*rep.Options.Threshold, MinRepeats+2)}
	case rep.Options.Test == TestU && minUP(least) >= rep.Options.Alpha:
		return []string{fmt.Sprintf("with %d repeats a side the U test's smallest p-value is %.3f, not under α = %g: no change can be called significant. Run -repeat 4 or more, or compare with -test t.", least, minUP(least), rep.Options.Alpha)}
	}
	return nil
}

// searchWarnings says which capacities could not be tested for
// significance: one side had a single search, or fewer than MinRepeats;
// and, with the U test, when the searches were too few for it to find
// any change.
func (rep *Report) searchWarnings() []string {
	var single, few []string
	least := math.MaxInt
	for _, r := range rep.Rows {
		if r.Metric != Capacity {
			continue
		}
		switch n := min(r.OldN, r.NewN); {
		case n == 1:
			single = append(single, fmt.Sprintf("%s (old %s, new %s)", r.Key, searchCount(r.OldN), searchCount(r.NewN)))
		case n < MinRepeats:
			few = append(few, fmt.Sprintf("%s (old %s, new %s)", r.Key, searchCount(r.OldN), searchCount(r.NewN)))
		default:
			least = min(least, n)
		}
	}
	var w []string
	if len(single) > 0 {
		w = append(w, fmt.Sprintf("capacities with a single search on a side cannot be tested for significance: %s. Their change is the figures' own, and one for the worse of %.0f%% or more counts as a regression; run both with -capacity -repeat %d or more to test them.",
			strings.Join(single, ", "), 100*rep.Options.Threshold, MinRepeats+1))
	}
	if len(few) > 0 {
		w = append(w, fmt.Sprintf("capacities with fewer than %d searches a side are not tested for significance: %s. Run both with -capacity -repeat %d or more to test them.",
			MinRepeats, strings.Join(few, ", "), MinRepeats+1))
	}
	if least != math.MaxInt && rep.Options.Test == TestU && minUP(least) >= rep.Options.Alpha {
		w = append(w, fmt.Sprintf("capacities: with %d searches a side the U test's smallest p-value is %.3f, not under α = %g: no change of a capacity can be called significant. Run -capacity -repeat 4 or more, or compare with -test t.", least, minUP(least), rep.Options.Alpha))
	}
	return w
}

// searchCount is n searches, in words fit for a list.
func searchCount(n int) string {
	if n == 1 {
		return "1 search"
	}
	return fmt.Sprintf("%d searches", n)
}

// minUP is the smallest two-sided p-value of the Mann–Whitney U test with
// n values a side: 2 / C(2n, n).
func minUP(n int) float64 {
	c := 1.0
	for i := 1; i <= n; i++ {
		c = c * float64(n+i) / float64(i)
	}
	return 2 / c
}

// environmentWarnings names what differs between the runs besides the
// code: a machine, a PostgreSQL, a dataset or settings that move the
// numbers on their own.
func environmentWarnings(old, new *results.Run) []string {
	var w []string
	oe, ne := old.Environment, new.Environment
	if oe.CPUModel != ne.CPUModel || oe.CPUCount != ne.CPUCount {
		w = append(w, fmt.Sprintf("different machines: %s × %d, then %s × %d", oe.CPUModel, oe.CPUCount, ne.CPUModel, ne.CPUCount))
	}
	if oe.PostgresVersion != ne.PostgresVersion {
		w = append(w, fmt.Sprintf("different PostgreSQL: %s, then %s", oe.PostgresVersion, ne.PostgresVersion))
	}
	if oe.Mode != ne.Mode {
		w = append(w, fmt.Sprintf("different modes: %s, then %s", oe.Mode, ne.Mode))
	}
	oset, ns := old.Settings, new.Settings
	if oset.Warmup != ns.Warmup || oset.Duration != ns.Duration || oset.MaxConnections != ns.MaxConnections || oset.SLOP99 != ns.SLOP99 {
		w = append(w, fmt.Sprintf("different settings: warm-up %s, duration %s, %d connections, SLO p99 %s; then %s, %s, %d, %s",
			time.Duration(oset.Warmup), time.Duration(oset.Duration), oset.MaxConnections, time.Duration(oset.SLOP99),
			time.Duration(ns.Warmup), time.Duration(ns.Duration), ns.MaxConnections, time.Duration(ns.SLOP99)))
	}
	return w
}
