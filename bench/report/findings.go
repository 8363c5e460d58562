package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"crudbench/bench/results"
	"crudbench/bench/scenario"
)

// closeCall is the ratio under which two apps count as level: run-to-run
// noise on a shared machine is of that order.
const closeCall = 1.05

// Findings derives plain-language findings from the numbers of run, never
// from hand-written text: for each (profile, scenario) which apps held the
// target (and which of those were over the SLO), which app had the most
// throughput when any queued, the lowest p99 latency among the apps that
// held the rate and the least app CPU per request, with its ratio to each
// of the others (on read-slim also the smallest answer, each app's answer
// against its read-many and the database's work, see slimFindings); then where apps saturated and at which rate, failed validations and skipped
// runs, and caveats (processes that could not be measured, runs whose load
// generator fell behind, a busy runner, a costly sampler, noisy repeats).
func Findings(run *results.Run) []string {
	if run == nil {
		return nil
	}
	l := layoutOf(run)
	var out []string
	for _, p := range l.profiles {
		rs := l.resultsOf(run, p)
		for _, g := range scenarioGroups(rs) {
			out = append(out, comparisons(p, g, run.Settings.SLOP99)...)
			if g[0].Scenario == scenario.ReadSlim {
				out = append(out, slimFindings(p, g, rs)...)
			}
		}
	}
	out = append(out, saturations(run, l)...)
	out = append(out, failures(run, l)...)
	return append(out, caveats(run, l)...)
}

// comparisons compares the apps of one (profile, scenario). Latencies are
// compared only between apps that held the rate: the p99 of an app that
// did not is the length of its queue, so its throughput is reported instead.
func comparisons(profile string, group []*results.Result, slo results.Duration) []string {
	var ms []*results.Result
	for _, r := range group {
		if r.Measured() {
			ms = append(ms, r)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	label := profile + " · " + group[0].Scenario
	out := []string{holdSentence(label, ms, slo)}
	var timed, queued []*results.Result
	for _, r := range ms {
		switch {
		case !r.HeldRate():
			queued = append(queued, r)
		case hasRequests(r):
			timed = append(timed, r)
		}
	}
	if len(timed) > 1 {
		s := fmt.Sprintf("%s: lowest p99 latency: %s", label,
			ranking(timed, func(r *results.Result) float64 { return r.Latency.P99 }, false, "ms", human))
		if len(queued) > 0 {
			s = strings.TrimSuffix(s, ".") + fmt.Sprintf("; not compared: %s, which queued.", listText(apps(queued)))
		}
		out = append(out, s)
	}
	if s := cpuSentence(label, ms); s != "" {
		out = append(out, s)
	}
	if s := stackSentence(label, ms); s != "" {
		out = append(out, s)
	}
	return out
}

// holdSentence says which apps held the target, which of those were over
// the SLO, and which queued, with the throughput of each when any queued.
func holdSentence(label string, ms []*results.Result, slo results.Duration) string {
	var held, slow, queued []string
	for _, r := range ms {
		switch {
		case !r.HeldRate():
			queued = append(queued, r.App)
		case r.Verdict == results.VerdictSlow:
			slow = append(slow, r.App)
			held = append(held, r.App)
		default:
			held = append(held, r.App)
		}
	}
	target := "the closed loop's load (no target rate)" // a closed loop's runs have none
	if t := ms[0].TargetRate; t > 0 {
		target = "the target of " + rateText(t) + " req/s"
	}
	var s string
	switch {
	case len(queued) == 0 && len(ms) == 1:
		s = fmt.Sprintf("%s: %s held %s", label, ms[0].App, target)
	case len(queued) == 0 && len(ms) == 2:
		s = fmt.Sprintf("%s: both %s held %s", label, listText(held), target)
	case len(queued) == 0:
		s = fmt.Sprintf("%s: all %d apps held %s", label, len(ms), target)
	case len(held) == 0:
		s = fmt.Sprintf("%s: no app held %s; %s queued", label, target, listText(queued))
	default:
		s = fmt.Sprintf("%s: %s held %s; %s did not and queued", label, listText(held), target, listText(queued))
	}
	if len(slow) > 0 {
		s += fmt.Sprintf("; over the p99 SLO%s: %s", sloText(slo), listText(slow))
	}
	s += "."
	if len(queued) > 0 && len(ms) > 1 {
		s += " Most throughput: " + ranking(ms, func(r *results.Result) float64 { return r.Throughput }, true, "req/s", fixedDigits(1))
	}
	return s
}

// sloText is " of 50 ms", or nothing when the run recorded no SLO.
func sloText(slo results.Duration) string {
	if slo <= 0 {
		return ""
	}
	return " of " + msText(slo) + " ms"
}

// msText prints a duration in milliseconds, as short as it is exact: 50,
// 2.5.
func msText(d results.Duration) string { return msFigure(float64(d) / 1e6) }

func msFigure(ms float64) string { return strconv.FormatFloat(ms, 'f', -1, 64) }

// cpuSentence ranks the apps by app CPU per request, where it was measured
// above the readings' resolution.
func cpuSentence(label string, ms []*results.Result) string {
	var costed, unresolved, uncosted []*results.Result
	for _, r := range ms {
		switch {
		case !appCPUPerRequest(r):
			uncosted = append(uncosted, r)
		case !cpuResolved(r):
			unresolved = append(unresolved, r)
		default:
			costed = append(costed, r)
		}
	}
	if len(costed) < 2 {
		return ""
	}
	s := fmt.Sprintf("%s: least app CPU per request: %s", label,
		ranking(costed, func(r *results.Result) float64 { return r.AppCost.CPUMsPerRequest }, false, "ms", small))
	if len(unresolved) > 0 {
		s = strings.TrimSuffix(s, ".") + fmt.Sprintf("; below the CPU readings' resolution for %s.", listText(apps(unresolved)))
	}
	if len(uncosted) > 0 {
		s = strings.TrimSuffix(s, ".") + fmt.Sprintf("; not measured for %s.", listText(apps(uncosted)))
	}
	return s
}

func fixedDigits(d int) func(float64) string { return func(v float64) string { return fixed(v, d) } }

func apps(rs []*results.Result) []string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.App
	}
	return names
}

// ranking names the best of rs by value (highest when higherBetter) and each
// other app's value and its ratio to the best, as a sentence ending in ".":
// "rest at 2.00 ms; graphql 2.50× that (5.00 ms), htmx 1.40× that (2.80 ms)."
// or, when higher is better, "rest at 1195.0 req/s; 1.31× graphql (912.0 req/s)."
func ranking(rs []*results.Result, value func(*results.Result) float64, higherBetter bool, unit string, format func(float64) string) string {
	sorted := slices.Clone(rs)
	slices.SortStableFunc(sorted, func(a, b *results.Result) int {
		if higherBetter {
			return cmp.Compare(value(b), value(a))
		}
		return cmp.Compare(value(a), value(b))
	})
	best := sorted[0]
	bv := value(best)
	var others []string
	for _, r := range sorted[1:] {
		v := value(r)
		// The ratio always reads as "how many times better the best is".
		num, den := v, bv
		if higherBetter {
			num, den = bv, v
		}
		if den <= 0 {
			others = append(others, fmt.Sprintf("%s %s %s", r.App, format(v), unit))
			continue
		}
		if higherBetter {
			others = append(others, fmt.Sprintf("%s %s (%s %s)", ratio(num, den), r.App, format(v), unit))
		} else {
			others = append(others, fmt.Sprintf("%s %s that (%s %s)", r.App, ratio(num, den), format(v), unit))
		}
	}
	s := fmt.Sprintf("%s at %s %s; %s", best.App, format(bv), unit, strings.Join(others, ", "))
	second := value(sorted[1])
	if lo, hi := min(bv, second), max(bv, second); lo > 0 && hi/lo < closeCall {
		s += fmt.Sprintf(" — %s and %s are within %.0f%% of each other, too close to call", best.App, sorted[1].App, (closeCall-1)*100)
	}
	return s + "."
}

// saturations says where each app saturated (queued), at which rate, its
// throughput, and the highest rate the same scenario held on that app.
func saturations(run *results.Run, l layout) []string {
	var out []string
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			if r.Verdict != results.VerdictSaturated {
				continue
			}
			s := fmt.Sprintf("%s did not hold %s at %s req/s (%s), so requests queued and its latencies measure the queue: throughput %s req/s", r.App, r.Scenario, rateText(r.TargetRate), p, fixed(r.Throughput, 1))
			if r.TargetRate > 0 {
				s += fmt.Sprintf(", %s of the target", percent(r.Throughput/r.TargetRate, 0))
			}
			s += fmt.Sprintf("; success %s", percent(r.SuccessRatio, 2))
			if lower := highestHeldBelow(run, r); lower != nil {
				s += fmt.Sprintf("; it held %s req/s (%s)", rateText(lower.TargetRate), lower.Profile)
			}
			out = append(out, s+".")
		}
	}
	return out
}

// highestHeldBelow is the result of the same scenario and app that held its
// rate (ok or slow) at the highest target rate under r's.
func highestHeldBelow(run *results.Run, r *results.Result) *results.Result {
	var best *results.Result
	for i := range run.Results {
		o := &run.Results[i]
		if o.Scenario == r.Scenario && o.App == r.App && o.HeldRate() &&
			o.TargetRate < r.TargetRate && (best == nil || o.TargetRate > best.TargetRate) {
			best = o
		}
	}
	return best
}

// failures reports failed validations and runs that were not measured.
func failures(run *results.Run, l layout) []string {
	var out []string
	failed := 0
	for _, v := range run.Validations {
		if !v.OK {
			failed++
			out = append(out, fmt.Sprintf("Validation failed for %s on %s: %s. That scenario was not measured on %s.", v.App, v.Scenario, orNA(v.Problem), v.App))
		}
	}
	if n := len(run.Validations); n > 0 && failed == 0 {
		out = append(out, fmt.Sprintf("All %d validation checks passed.", n))
	}
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			switch r.Verdict {
			case results.VerdictSkipped:
				out = append(out, fmt.Sprintf("%s · %s on %s was skipped: %s.", p, r.Scenario, r.App, orNA(r.Reason)))
			case results.VerdictFailed:
				if !validationFailed(run, r.Scenario, r.App) {
					out = append(out, fmt.Sprintf("%s · %s on %s failed: %s.", p, r.Scenario, r.App, orNA(r.Reason)))
				}
			}
		}
	}
	return out
}

func validationFailed(run *results.Run, scenario, app string) bool {
	for _, v := range run.Validations {
		if !v.OK && v.Scenario == scenario && v.App == app {
			return true
		}
	}
	return false
}

// caveats say where the numbers are incomplete or less trustworthy.
func caveats(run *results.Run, l layout) []string {
	out := sources(run, l)
	out = append(out, appCostCaveats(run, l)...)
	out = append(out, dbCaveats(run)...)
	out = append(out, loadGeneratorCaveats(run, l)...)
	out = append(out, startQueueCaveats(run, l)...)
	out = append(out, spreadCaveats(run, l)...)
	return append(out, capacitySpreadCaveats(run, l)...)
}

// appCostCaveats names the apps whose CPU and memory could not be read in
// some of their runs.
func appCostCaveats(run *results.Run, l layout) []string {
	var out []string
	for _, a := range l.apps {
		var total, blind int
		for i := range run.Results {
			r := &run.Results[i]
			if r.App == a && r.Measured() {
				total++
				if !r.AppCost.Available {
					blind++
				}
			}
		}
		if blind > 0 {
			out = append(out, fmt.Sprintf("App CPU and memory of %s could not be read in %d of its %d measured runs (no visible process, e.g. attached by URL without a pid): those cells show n/a and %s is left out of CPU comparisons there.", a, blind, total, a))
		}
	}
	return out
}

// dbCaveats counts the runs without PostgreSQL's statement counts or CPU.
func dbCaveats(run *results.Run) []string {
	var out []string
	var noStmts, noDBCPU, total int
	for i := range run.Results {
		r := &run.Results[i]
		if !r.Measured() {
			continue
		}
		total++
		if !r.DB.Available {
			noStmts++
		}
		if !r.DB.CPUAvailable {
			noDBCPU++
		}
	}
	if noStmts > 0 {
		out = append(out, fmt.Sprintf("PostgreSQL statement counts were not available in %d of %d measured runs (pg_stat_statements not readable): DB stmts/req shows n/a there.", noStmts, total))
	}
	if noDBCPU > 0 {
		out = append(out, fmt.Sprintf("PostgreSQL CPU was not visible in %d of %d measured runs (e.g. a server on another host or in a container): DB CPU shows n/a there.", noDBCPU, total))
	}
	return out
}

// loadGeneratorCaveats names the runs where the load generator fell behind
// its schedule, and says when it or the sampler took a large share of the
// machine.
func loadGeneratorCaveats(run *results.Run, l layout) []string {
	var out []string
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			if r.Measured() && r.TargetRate > 0 && r.AchievedRate < results.MinThroughputShare*r.TargetRate {
				out = append(out, fmt.Sprintf("The load generator sent only %s of the %s req/s target to %s on %s (%s), %s: it fell behind its own schedule, so that run did not test the full rate; see the runner's CPU.",
					fixed(r.AchievedRate, 1), rateText(r.TargetRate), r.App, r.Scenario, p, percent(r.AchievedRate/r.TargetRate, 0)))
			}
		}
	}
	if rc := run.Runner; rc.Available && run.Environment.CPUCount > 0 {
		if share := rc.CPUMean / float64(run.Environment.CPUCount); share >= 0.25 {
			out = append(out, fmt.Sprintf("The load generator itself used %s of one core on average, %s of this %d-core machine: it competes with the apps and PostgreSQL for the same cores.",
				percent(rc.CPUMean, 0), percent(share, 0), run.Environment.CPUCount))
		}
	}
	if run.SamplerOverhead >= 0.01 {
		out = append(out, fmt.Sprintf("The sampler used %s of one core, above its goal of 1%%.", percent(run.SamplerOverhead, 2)))
	}
	return out
}

// spreadCaveats names the runs whose p99 varied across repeats by more
// than half its median.
func spreadCaveats(run *results.Run, l layout) []string {
	var out []string
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			if r.Measured() && r.Spread != nil && r.Latency.P99 > 0 && r.Spread.P99 > r.Latency.P99/2 {
				out = append(out, fmt.Sprintf("p99 latency of %s on %s (%s) varied by %s ms across %d repeats around a median of %s ms: read that comparison with care.",
					r.App, r.Scenario, p, human(r.Spread.P99), len(r.Repeats), human(r.Latency.P99)))
			}
		}
	}
	return out
}

// capacitySpreadCaveats names the capacities whose repeated searches
// moved by more than results.CapacityWideSpread of their median, up or
// down, with every search's figure: one search alone could have reported
// either end of the range.
func capacitySpreadCaveats(run *results.Run, l layout) []string {
	var out []string
	for _, c := range l.capacitiesOf(run) {
		if !c.Repeated() || !c.WideSpread() {
			continue
		}
		lo, hi, n := c.Range()
		each := searchesText(c)
		if c.Rate <= 0 {
			out = append(out, fmt.Sprintf("The capacity of %s on %s moved across its %d searches, whose median met the SLO at no rate (%s): %s req/s. One search alone could have reported any of them: compare it with another app or run only with more searches (-repeat), and as its median and range.",
				c.App, c.Scenario, n, capacityText(c), each))
			continue
		}
		out = append(out, fmt.Sprintf("The capacity of %s on %s moved by more than ±%s of its median (%s req/s) across its %d searches, from %s to %s: %s req/s. One search alone could have reported either end: compare it with another app or run only with more searches (-repeat), and as its median and range.",
			c.App, c.Scenario, percent(results.CapacityWideSpread, 0), rateText(math.Round(c.Rate)), n,
			signedShare(lo, c.Rate), signedShare(hi, c.Rate), each))
	}
	return out
}

// signedShare is v against the median m: "−14%", "+10%"; n/a without a
// median.
func signedShare(v, m float64) string {
	if m <= 0 {
		return na
	}
	d := math.Round(100 * (v - m) / m)
	if d < 0 {
		return fmt.Sprintf("−%.0f%%", -d)
	}
	return fmt.Sprintf("+%.0f%%", d)
}

// startQueueFactor is how many times the window's steady p50 the p50 of its
// first second must be to count as a queue the warm-up left.
const startQueueFactor = 10

// startQueueCaveats names the runs whose measured window began with a
// queue that the warm-up left and that then drained: a cold start — the
// app's first run, code a JIT had not compiled yet, connections still
// opening — whose seconds the window's percentiles and verdict include
// although the app held the rate once it was past them. The per-second
// p50s show it: the first far above the steady p50 (the median of the
// window's second half), back near it within the first half.
func startQueueCaveats(run *results.Run, l layout) []string {
	var out []string
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			first, steady, drained, ok := startQueue(r, sloMs(run))
			if !ok {
				continue
			}
			out = append(out, fmt.Sprintf("%s on %s (%s) began its measured window with a queue the warm-up left: a p50 of %s ms in its first second, %s ms once the queue had drained after %d s. Its percentiles and verdict include those seconds; a cold start (its first run, or code a JIT had not compiled yet) looks like this, and a longer -warmup leaves it out of the window.",
				r.App, r.Scenario, p, human(first), human(steady), drained))
		}
	}
	return out
}

// startQueue reports whether r's window began with a queue that drained
// (see startQueueCaveats): its first second's p50, the steady p50, and
// the second in which the p50 came back within twice the steady one. A
// first second under the SLO is not a queue worth naming.
func startQueue(r *results.Result, sloMs float64) (first, steady float64, drained int, ok bool) {
	ts := r.Timeline
	if !r.Measured() || len(ts) < 6 || ts[0].Requests == 0 {
		return 0, 0, 0, false
	}
	var late []float64
	for _, s := range ts[len(ts)/2:] {
		if s.Requests > 0 {
			late = append(late, s.P50)
		}
	}
	if len(late) == 0 {
		return 0, 0, 0, false
	}
	slices.Sort(late)
	steady, first = late[len(late)/2], ts[0].P50
	if steady <= 0 || first < startQueueFactor*steady || first < sloMs {
		return 0, 0, 0, false
	}
	for i, s := range ts[:len(ts)/2] {
		if s.Requests > 0 && s.P50 <= 2*steady {
			return first, steady, i, true
		}
	}
	return 0, 0, 0, false
}
