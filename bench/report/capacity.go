package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"crudbench/bench/capacity"
	"crudbench/bench/results"
)

// capacitiesOf returns the capacities of run ordered by scenario, then app.
func (l layout) capacitiesOf(run *results.Run) []*results.Capacity {
	var cs []*results.Capacity
	for _, s := range l.scenarios {
		for _, a := range l.apps {
			for i := range run.Capacities {
				if c := &run.Capacities[i]; c.Scenario == s && c.App == a {
					cs = append(cs, c)
				}
			}
		}
	}
	return cs
}

// capacityText is the capacity as the tables and the bottom line print it:
// a rate, a lower bound when the cap was reached first or the machine's
// other side stopped the search (results.Capacity.MachineBound), or the
// first rate of the ramp when even that missed the SLO; the median of
// repeated searches with their range (rangeText).
func capacityText(c *results.Capacity) string {
	figure, marks := searchText(c)
	if c.Repeated() {
		marks = append(marks, rangeText(c))
	}
	if len(marks) == 0 {
		return figure
	}
	return figure + " (" + strings.Join(marks, "; ") + ")"
}

// searchText is c's figure and what qualifies it — machine-bound,
// unconfirmed, the cap reached — as capacityText joins them.
func searchText(c *results.Capacity) (figure string, marks []string) {
	rate := rateText(math.Round(c.Rate))
	switch c.Status {
	case results.CapacityFound:
		if reason := c.BoundReason(); reason != "" {
			return "≥ " + rate, []string{"machine-bound: " + reason}
		}
		if c.Unconfirmed() {
			return rate, []string{"unconfirmed"}
		}
		return rate, nil
	case results.CapacityCapped:
		if reason := c.BoundReason(); reason != "" {
			// The median of searches, one at or below it machine-bound.
			return "≥ " + rate, []string{"machine-bound: " + reason}
		}
		if c.Found > 0 {
			// The probes reached the cap, a full-length run held only
			// below it: no lower bound, a rate.
			return rate, nil
		}
		if c.Unconfirmed() {
			return "≥ " + rate, []string{"cap reached, unconfirmed"}
		}
		return "≥ " + rate, []string{"cap reached"}
	case results.CapacityNone:
		return "none below " + rateText(noneBound(c)), nil
	}
	return na, nil
}

// rangeText is the median of repeated searches and their range, min–max
// over the searches that ran: "median of 3: 102–130", "wide" added when
// one moved by more than results.CapacityWideSpread of the median.
func rangeText(c *results.Capacity) string {
	lo, hi, _ := c.Range()
	of, leftOut := medianOf(c)
	s := "median of " + of + leftOut + ": " + rateText(math.Round(lo)) + "–" + rateText(math.Round(hi))
	if c.WideSpread() {
		s += ", wide"
	}
	return s
}

// medianOf says which searches c's median was taken over, as rangeText
// and the bottom line write it after "median of": of is "3" when every
// search counted, "2 that ran of 3" when one did not run, "2 unconfirmed
// of 3" when the unconfirmed were the majority and the median is theirs;
// leftOut is " with 1 unconfirmed left out" when a rate that a full-length
// run never held was not counted (results.FoldCapacities: it does not pull
// the median up), so that the range beside it is not read as the median's.
func medianOf(c *results.Capacity) (of, leftOut string) {
	_, _, ran := c.Range()
	of = strconv.Itoa(ran)
	if ran < len(c.Searches) {
		of = fmt.Sprintf("%d that ran of %d", ran, len(c.Searches))
	}
	counted := len(c.CountedRates())
	switch {
	case counted >= ran:
		return of, ""
	case c.Unconfirmed():
		return fmt.Sprintf("%d unconfirmed of %s", counted, of), ""
	}
	return of, fmt.Sprintf(" with %d unconfirmed left out", ran-counted)
}

// searchesText lists the figure of each of c's searches in the order they
// ran, each with what qualifies it: "102, 130 (unconfirmed), 118"; a
// search that did not run by its status.
func searchesText(c *results.Capacity) string {
	var each []string
	for _, s := range c.Each() {
		figure, marks := searchText(s)
		if figure == na {
			figure = s.Status
		}
		if len(marks) > 0 {
			figure += " (" + strings.Join(marks, "; ") + ")"
		}
		each = append(each, figure)
	}
	return strings.Join(each, ", ")
}

// capacityRepeats reports whether any capacity of run folds repeated
// searches.
func capacityRepeats(run *results.Run) bool {
	for i := range run.Capacities {
		if run.Capacities[i].Repeated() {
			return true
		}
	}
	return false
}

// boundText is "≥ " before a figure of a machine-bound capacity, which
// is a lower bound of the app's, and nothing before any other.
func boundText(c *results.Capacity) string {
	if c.MachineBound() {
		return "≥ "
	}
	return ""
}

// boundLift says what would lift a machine-bound capacity's bound: room
// for the side of the machine that was full.
func boundLift(c *results.Capacity) string {
	switch c.BoundReason() {
	case results.StopOtherLoad:
		return "a machine without the other work"
	case results.StopBrokerCPU:
		return "more CPUs for RabbitMQ, PostgreSQL and the load generator (-cpus app=…,rest=…) or RabbitMQ on a host of its own (AMQP_URL)"
	}
	return "more CPUs for PostgreSQL and the load generator (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL)"
}

// lowestConfirmation is the lowest rate a full-length confirmation of c
// ran at, zero when none ran.
func lowestConfirmation(c *results.Capacity) float64 {
	low := 0.0
	if r := c.Confirmation; r != nil && r.Measured() {
		low = r.TargetRate
	}
	for _, m := range c.Missed {
		if low == 0 || m.TargetRate < low {
			low = m.TargetRate
		}
	}
	return low
}

// noneBound is the rate a search that found nothing failed at first: its
// Upper, or else its first probe's.
func noneBound(c *results.Capacity) float64 {
	if c.Upper > 0 || len(c.Probes) == 0 {
		return c.Upper
	}
	return c.Probes[0].Rate
}

// stopText is the stop reason in words with the numbers it was judged on:
// the search's detail, which the search always writes beside the reason
// and which names it, or the bare reason in a file that lacks one.
func stopText(c *results.Capacity) string {
	switch {
	case c.StopDetail != "":
		return c.StopDetail
	case c.StopReason != "":
		return c.StopReason
	}
	return na
}

func statusText(c *results.Capacity) string {
	if c.Reason != "" {
		return c.Status + ": " + c.Reason
	}
	return c.Status
}

// capacityTable has one row per (scenario, app) search: what it found, what
// stopped it, and the confirmation run at the rate found. With repeated
// searches a row is the median search's, and a last column lists every
// search's figure in the order they ran.
func capacityTable(run *results.Run, l layout) table {
	t := table{
		Header: []string{"scenario", "app", "capacity req/s", "status", "stopped by", "req/s per core",
			"confirmation", "throughput req/s", "p50 ms", "p99 ms", "app CPU mean"},
		Right: []bool{false, false, true, false, false, true, false, true, true, true, true},
	}
	repeated := capacityRepeats(run)
	if repeated {
		t.Header, t.Right = append(t.Header, "each search req/s"), append(t.Right, false)
	}
	slo := run.Settings.CapacitySLO()
	for _, c := range l.capacitiesOf(run) {
		cells := []string{c.Scenario, c.App, capacityText(c), statusText(c), stopText(c), na}
		if c.PerCore > 0 {
			cells[5] = boundText(c) + rateText(math.Round(c.PerCore))
		}
		cells = append(cells, confirmationCells(slo, c)...)
		if repeated {
			cells = append(cells, searchesText(c))
		}
		cs := texts(cells...)
		cs[4].Wrap, cs[6].Wrap = true, true
		if repeated {
			cs[len(cs)-1].Wrap = true
		}
		t.Rows = append(t.Rows, row{Cells: cs, Class: capacityClass(slo, c)})
	}
	return t
}

// capacityClass colours a capacity row as its probes are coloured, by the
// capacity SLO (sloClass): ok when its confirmation held, slow or
// saturated by what the confirmation missed when it did not; a
// confirmation that was not measured by its verdict.
func capacityClass(slo results.SLO, c *results.Capacity) string {
	switch r := c.Confirmation; {
	case r == nil:
		return c.Status
	case !r.Measured():
		return r.Verdict
	case c.Held:
		return results.VerdictOK
	default:
		return sloClass(slo.JudgeRun(r))
	}
}

// sloClass colours a probe or a confirmation by what the capacity SLO
// said of it, with the classes of the result rows: ok when it met the
// SLO, slow when it held its rate and only its p99 missed, saturated when
// it did not hold its rate.
func sloClass(j results.Judgement) string {
	switch {
	case j.Met:
		return results.VerdictOK
	case j.HeldRate:
		return results.VerdictSlow
	}
	return results.VerdictSaturated
}

// confirmationCells are whether the confirmation held the SLO and its
// throughput, p50, p99 and app CPU.
func confirmationCells(slo results.SLO, c *results.Capacity) []string {
	r := c.Confirmation
	if r == nil || !r.Measured() {
		return []string{"not run", na, na, na, na}
	}
	held := "held the SLO"
	if !c.Held {
		held = "missed the SLO (" + missedWhy(slo, r) + ")"
	}
	if len(c.Missed) > 0 {
		held += "; " + missedText(slo, c)
	}
	cells := []string{held, fixed(r.Throughput, 1), na, na, na}
	if hasRequests(r) {
		cells[2], cells[3] = human(r.Latency.P50), human(r.Latency.P99)
	}
	if r.AppCost.Available {
		cells[4] = percent(r.AppCost.CPUMean, 1)
	}
	return cells
}

// missedText says where c's other confirmations missed: above the rate
// the capacity stands on when its confirmation held ("missed it at 1,600
// req/s (p99 73.2 ms over the 50 ms SLO)"), below it when none held
// ("missed at 1,440 and 1,296 req/s too").
func missedText(slo results.SLO, c *results.Capacity) string {
	if !c.Held {
		rates := make([]string, len(c.Missed))
		for i := range c.Missed {
			rates[i] = rateText(math.Round(c.Missed[i].TargetRate))
		}
		return "missed at " + strings.Join(rates, " and ") + " req/s too"
	}
	misses := make([]string, len(c.Missed))
	for i := range c.Missed {
		misses[i] = rateText(math.Round(c.Missed[i].TargetRate)) + " req/s (" + missedWhy(slo, &c.Missed[i]) + ")"
	}
	return "missed it at " + strings.Join(misses, ", at ")
}

// missedWhy says what a confirmation that missed missed, in the words of
// the probes' SLO: "throughput 960 req/s under 99% of 1000 req/s"; its
// verdict, for a file whose confirmation the SLO finds no fault with (a
// hand-made one).
func missedWhy(slo results.SLO, r *results.Result) string {
	if why := slo.JudgeRun(r).Why; why != "" {
		return why
	}
	return verdictText(r)
}

// probeTable lists the probes of one search in the order they ran, with the
// CPU of everything that shares the machine, each coloured by slo.
func probeTable(slo results.SLO, c *results.Capacity) table {
	t := table{
		Header: []string{"#", "rate req/s", "achieved req/s", "throughput req/s", "success", "p50 ms", "p99 ms",
			"app CPU", "pool wait ms/req", "PostgreSQL CPU", "runner CPU", "machine CPU", "other CPU", "SLO"},
		Right: []bool{true, true, true, true, true, true, true, true, true, true, true, true, false, false},
	}
	for i, p := range c.Probes {
		cells := []string{strconv.Itoa(i + 1), probeRate(p), fixed(p.AchievedRate, 1), fixed(p.Throughput, 1),
			percent(p.SuccessRatio, 2), human(p.P50), human(p.P99),
			probeAppCPU(p), probePoolWait(p), coresText(p.DBCPU, p.DBCPUAvailable), coresText(p.RunnerCPU, true),
			coresText(p.MachineCPU, p.MachineCPUAvailable), otherText(p), metText(p)}
		t.Rows = append(t.Rows, row{Cells: texts(cells...), Class: sloClass(slo.JudgeProbe(p))})
	}
	return t
}

// probesCompact is every probe of every search in one table, for
// report.md; with repeated searches a column says whose.
func probesCompact(run *results.Run, l layout) table {
	t := table{
		Header: []string{"scenario", "app", "rate req/s", "throughput req/s", "p99 ms", "app CPU", "pool wait ms/req", "SLO"},
		Right:  []bool{false, false, true, true, true, true, true, false},
	}
	repeated := capacityRepeats(run)
	if repeated {
		t.Header = slices.Insert(t.Header, 2, "search")
		t.Right = slices.Insert(t.Right, 2, true)
	}
	for _, c := range l.capacitiesOf(run) {
		for _, s := range c.Each() {
			for _, p := range s.Probes {
				cells := []string{c.Scenario, c.App, probeRate(p), fixed(p.Throughput, 1),
					human(p.P99), probeAppCPU(p), probePoolWait(p), metText(p)}
				if repeated {
					cells = slices.Insert(cells, 2, searchNumber(s))
				}
				t.Rows = append(t.Rows, row{Cells: texts(cells...)})
			}
		}
	}
	return t
}

// searchNumber is a search's number among its repeats, "1" for a search
// that was not repeated.
func searchNumber(s *results.Capacity) string {
	return strconv.Itoa(max(s.Search, 1))
}

// searchLabel names search s of c in a heading, with its process when
// known: " · search 2 of 3 (pid 4242)"; nothing when c was searched once.
func searchLabel(c, s *results.Capacity) string {
	if !c.Repeated() {
		return ""
	}
	label := fmt.Sprintf(" · search %s of %d", searchNumber(s), len(c.Searches))
	if s.PID > 0 {
		label += fmt.Sprintf(" (pid %d)", s.PID)
	}
	if s.Search == c.Search {
		label += ", the median"
	}
	return label
}

// probeRate is a probe's rate, with its try when it was one after a miss.
func probeRate(p results.Probe) string {
	if p.Try > 1 {
		return fmt.Sprintf("%s (try %d)", rateText(p.Rate), p.Try)
	}
	return rateText(p.Rate)
}

// coresText prints CPU in cores as the result tables do: % of one core.
func coresText(cores float64, ok bool) string {
	if !ok {
		return na
	}
	return percent(cores, 0)
}

// probeAppCPU is the app's CPU in a probe, as "< 3%" (the most it can
// be) when it is under its resolution.
func probeAppCPU(p results.Probe) string {
	if p.AppCPUBelowResolution() {
		return "< " + percent(p.AppCPU+p.AppCPUResolution, 0)
	}
	return coresText(p.AppCPU, p.AppCPUAvailable)
}

// otherText is the CPU of the machine's other processes in a probe, with
// the busiest of them when they were named: "31% (npm 22%, sshd 3%)".
func otherText(p results.Probe) string {
	if !p.OtherCPUAvailable {
		return na
	}
	text := percent(p.OtherCPU, 0)
	if len(p.Others) > 0 {
		names := make([]string, len(p.Others))
		for i, o := range p.Others {
			names[i] = o.Name + " " + percent(o.Cores, 0)
		}
		text += " (" + strings.Join(names, ", ") + ")"
	}
	return text
}

func metText(p results.Probe) string {
	switch {
	case p.Met:
		return "met"
	case p.Why != "":
		return "missed: " + p.Why
	}
	return "missed"
}

// capacityHowTo explains the search with the knobs it ran with.
func capacityHowTo(run *results.Run) string {
	s := "The capacity of an app is the highest constant rate at which it met the SLO"
	if slo := run.Settings.SLOP99; slo > 0 {
		s += ": p99 within " + msText(slo) + " ms"
	}
	if cs := run.Settings.Capacity; cs != nil {
		s += fmt.Sprintf(", success at least %s and throughput at least %s of the rate. "+
			"The search ramps from %s req/s by ×%s per step until a rate misses, then bisects to within %s; "+
			"each probe is a %s warm-up and %s measured, a rate whose probe missed is tried again and counts as missed when two of three tries miss (one spike does not decide a capacity), "+
			"and the search stops at %s req/s (≥ marks a capacity that reached that cap). ",
			percent(cs.MinSuccessRatio, 1), percent(cs.MinThroughputShare, 0), rateText(cs.Start), strconv.FormatFloat(cs.Growth, 'g', 3, 64),
			percent(cs.Precision, 0), durationText(cs.ProbeWarmup), durationText(cs.ProbeDuration), rateText(cs.Max))
	} else {
		s += ". "
	}
	return s + fmt.Sprintf("A confirmation run at the full measured duration repeats the rate found, judged by the same SLO as the probes (not by the fixed profiles' verdict); when it misses the SLO, another confirms %s of that rate, up to %d runs: "+
		"the capacity is the highest rate a full-length run held (the probes' rate, marked as missed, when none did), and its confirmation's numbers are the ones shown. ",
		percent(capacity.ConfirmStep, 0), capacity.MaxConfirmations) +
		"Stopped by names what kept the capacity from being higher, judged on the worst try at the lowest rate that missed: " +
		"the app's CPU, PostgreSQL's, an amqp app's broker's (RabbitMQ's), the load generator's (it shares this machine), other processes' on the machine, the app's database pool, " +
		"a latency spike (the rate held, most requests quick, a tail nothing measured explains) or latency that grew with CPU to spare. " +
		"A capacity stopped by PostgreSQL's CPU, the broker's, the load generator's or other processes' is the machine's limit, not the app's: it is written ≥ N (machine-bound: the reason), a lower bound of the app's capacity, and not ranked against apps whose own core was the limit; " +
		"more CPUs for PostgreSQL, the broker and the load generator (-cpus app=…,rest=…), PostgreSQL or the broker on a host of its own (DATABASE_URL, AMQP_URL) or a machine without the other work would lift it. " +
		perCoreText(run.Settings.CPUs)
}

// perCoreText says what the capacity per core was divided by: the app's
// own CPUs when it had them, else the CPU it used.
func perCoreText(c *results.CPUs) string {
	if c != nil && c.Isolated && c.AppCores > 0 {
		return fmt.Sprintf("Req/s per core is the capacity divided by the %d CPU(s) the app had to itself (-cpus): what a core given to it served, whatever stopped it.", c.AppCores)
	}
	return "Req/s per core is the capacity divided by the app's mean CPU in cores in the confirmation run: the figure that carries over to a bigger machine."
}

// probePoolWait is a probe's mean pool wait per request, n/a when the
// app's metrics were not read.
func probePoolWait(p results.Probe) string {
	if !p.PoolAvailable {
		return na
	}
	return small(p.PoolWaitMs)
}
