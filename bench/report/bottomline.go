package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"crudbench/bench/results"
)

// basis is the set of runs the bottom line takes one scenario's
// per-request numbers from, one per app, and where they came from.
type basis struct {
	scenario string
	source   string
	runs     map[string]*results.Result
}

// basisRule says how the bottom line picks its runs, for the report.
const basisRule = "For each scenario, the bottom line's CPU-ms per request, bytes per response and RSS come from the fixed profile with the highest rate at which every measured app held its rate, so that the apps are compared at one rate; " +
	"without one, from the capacity confirmation runs when every app's confirmation held its rate — each app then at its own capacity, and the CPU a request costs falls as the rate rises, so those ratios compare different loads. " +
	"Never from a run that queued, whose numbers describe a queue. RSS is the highest of an app's chosen runs."

// bases picks the runs of each scenario by basisRule; a scenario with no
// such runs is absent.
func bases(run *results.Run, l layout) []basis {
	var out []basis
	for _, s := range l.scenarios {
		if b, ok := profileBasis(run, l, s); ok {
			out = append(out, b)
		} else if b, ok := confirmationBasis(run, l, s); ok {
			out = append(out, b)
		}
	}
	return out
}

func confirmationBasis(run *results.Run, l layout, scenario string) (basis, bool) {
	b := basis{scenario: scenario, source: "capacity confirmation runs, each app at its own capacity", runs: map[string]*results.Result{}}
	for _, c := range l.capacitiesOf(run) {
		if c.Scenario != scenario {
			continue
		}
		if c.Confirmation == nil || !c.Confirmation.HeldRate() {
			return basis{}, false
		}
		b.runs[c.App] = c.Confirmation
	}
	return b, len(b.runs) > 0
}

func profileBasis(run *results.Run, l layout, scenario string) (basis, bool) {
	var best basis
	bestRate := 0.0
	for _, p := range l.profiles {
		b := basis{scenario: scenario, runs: map[string]*results.Result{}}
		rate, held := 0.0, true
		for _, r := range l.resultsOf(run, p) {
			if r.Scenario != scenario || !r.Measured() {
				continue
			}
			held = held && r.HeldRate()
			b.runs[r.App], rate = r, max(rate, r.TargetRate)
		}
		if held && len(b.runs) > 0 && rate > bestRate {
			b.source = "profile " + p + " at " + rateText(rate) + " req/s"
			best, bestRate = b, rate
		}
	}
	return best, bestRate > 0
}

// bottomLine is the table at the top of the reports and the sentences
// computed from its numbers.
type bottomLine struct {
	Table     table
	Sentences []string
	// Sources says which runs each scenario's numbers came from.
	Sources string
	// Pages are the page scenarios' sentences (pages.go): what a person
	// waits for on each front end and what a view costs the servers.
	Pages []string
}

// bottomLineOf builds the bottom line; it is empty when run has nothing to
// show in it.
func bottomLineOf(run *results.Run, l layout) bottomLine {
	bs := bases(run, l)
	capScen := capacityScenarios(run, l)
	if len(bs) == 0 && len(capScen) == 0 && len(run.Stacks) == 0 {
		return bottomLine{Pages: pageSentences(run, l)}
	}
	bl := bottomLine{Pages: pageSentences(run, l)}
	bl.Table = bottomTable(run, l, bs, capScen)
	for _, s := range capScen[:min(2, len(capScen))] {
		bl.Sentences = appendIf(bl.Sentences, capacitySentence(run, l, s))
	}
	bl.Sentences = appendIf(bl.Sentences, cpuShareSentence(l, bs))
	bl.Sentences = appendIf(bl.Sentences, memorySentence(l, bs))
	bl.Sentences = appendIf(bl.Sentences, sizeSentence(run))
	var src []string
	for _, b := range bs {
		src = append(src, b.scenario+": "+b.source)
	}
	if len(src) > 0 {
		bl.Sources = "Here: " + strings.Join(src, "; ") + "."
	}
	return bl
}

func appendIf(ss []string, s string) []string {
	if s == "" {
		return ss
	}
	return append(ss, s)
}

// capacityScenarios are the scenarios with a capacity search, in order.
func capacityScenarios(run *results.Run, l layout) []string {
	var ss []string
	for _, c := range l.capacitiesOf(run) {
		if !slices.Contains(ss, c.Scenario) {
			ss = append(ss, c.Scenario)
		}
	}
	return ss
}

func capacityOf(run *results.Run, scenario, app string) *results.Capacity {
	for i := range run.Capacities {
		if c := &run.Capacities[i]; c.Scenario == scenario && c.App == app {
			return c
		}
	}
	return nil
}

func stackOf(run *results.Run, app string) *results.StackFacts {
	for i := range run.Stacks {
		if run.Stacks[i].App == app {
			return &run.Stacks[i]
		}
	}
	return nil
}

// bottomTable has one row per app: capacity per searched scenario, CPU-ms
// per request and bytes per response per scenario with a basis, RSS, and
// the binary and its hand-written lines when the stack facts were taken.
func bottomTable(run *results.Run, l layout, bs []basis, capScen []string) table {
	t := table{Header: []string{"app"}, Right: []bool{false}}
	col := func(h string) { t.Header, t.Right = append(t.Header, h), append(t.Right, true) }
	for _, s := range capScen {
		col(s + " capacity req/s")
	}
	for _, b := range bs {
		col(b.scenario + " CPU-ms/req")
		col(b.scenario + " bytes/resp")
	}
	if len(bs) > 0 {
		col("RSS max MB")
	}
	if len(run.Stacks) > 0 {
		w := wordsOf(run)
		col(w.deployed + " MB")
		col("own " + w.code + " lines")
	}
	for _, a := range l.apps {
		t.Rows = append(t.Rows, row{Cells: texts(bottomCells(run, a, bs, capScen)...)})
	}
	return t
}

func bottomCells(run *results.Run, app string, bs []basis, capScen []string) []string {
	cells := []string{app}
	for _, s := range capScen {
		if c := capacityOf(run, s, app); c != nil {
			cells = append(cells, capacityText(c))
		} else {
			cells = append(cells, na)
		}
	}
	for _, b := range bs {
		cells = append(cells, cpuCell(b.runs[app]), bytesCell(b.runs[app]))
	}
	if len(bs) > 0 {
		cells = append(cells, positive(maxRSS(bs, app), 1))
	}
	if len(run.Stacks) > 0 {
		if f := stackOf(run, app); f != nil {
			cells = append(cells, positive(deployedMB(*f), 1), linesText(f.Own.Code()))
		} else {
			cells = append(cells, na, na)
		}
	}
	return cells
}

// linesText prints a count of lines, n/a when none were counted.
func linesText(n int) string {
	if n <= 0 {
		return na
	}
	return thousands(float64(n))
}

func cpuCell(r *results.Result) string {
	if r == nil || !appCPUPerRequest(r) {
		return na
	}
	return cpuMsText(r)
}

func bytesCell(r *results.Result) string {
	if r == nil || !hasRequests(r) {
		return na
	}
	return thousands(r.BytesIn)
}

// maxRSS is the highest RSS of app's chosen runs, 0 when none was seen.
func maxRSS(bs []basis, app string) float64 {
	v := 0.0
	for _, b := range bs {
		if r := b.runs[app]; r != nil && r.AppCost.Available {
			v = max(v, r.AppCost.RSSMaxMB)
		}
	}
	return v
}

// capacitySentence says how far each app went on one scenario: "On
// read-one, rest met the SLO up to 1450 req/s on this machine, graphql up to
// 610 req/s; htmx did not meet it even at 100 req/s." A machine-bound
// capacity has a clause of its own, never in a list with the apps whose
// own limit stopped them.
func capacitySentence(run *results.Run, l layout, scenario string) string {
	var met []string
	var bound, probesOnly []*results.Capacity
	var none []noneAt
	for _, a := range l.apps {
		c := capacityOf(run, scenario, a)
		if c == nil {
			continue
		}
		if c.MachineBound() {
			bound = append(bound, c)
			continue
		}
		if c.Unconfirmed() {
			probesOnly = append(probesOnly, c)
			continue
		}
		switch c.Status {
		case results.CapacityFound:
			met = append(met, a+" up to "+rateText(math.Round(c.Rate))+" req/s"+spreadClause(c))
		case results.CapacityCapped:
			met = append(met, a+" up to the search's cap of "+rateText(math.Round(c.Rate))+" req/s"+spreadClause(c))
		case results.CapacityNone:
			none = append(none, noneAt{a, rateText(noneBound(c)) + " req/s" + spreadClause(c)})
		}
	}
	var parts []string
	if len(met) > 0 {
		s := strings.Replace(met[0], " up to ", " met the SLO up to ", 1) + " on this machine"
		if len(met) > 1 {
			s += ", " + listText(met[1:])
		}
		parts = append(parts, s)
	}
	if len(bound) > 0 {
		parts = append(parts, boundClause(bound, len(met) == 0))
	}
	for i, c := range probesOnly {
		verb := "met it"
		if i == 0 && len(met)+len(bound) == 0 {
			verb = "met the SLO"
		}
		parts = append(parts, unconfirmedClause(run, c, verb))
	}
	if len(none) > 0 {
		parts = append(parts, noneClause(none, len(met)+len(bound)+len(probesOnly) == 0))
	}
	if len(parts) == 0 {
		return ""
	}
	return "On " + scenario + ", " + strings.Join(parts, "; ") + "."
}

// boundClause says how far the machine-bound apps went, as lower bounds,
// and what would lift them, naming the SLO when first: "rest met it up to
// at least 916 req/s (machine-bound: postgres-cpu), where the machine, not
// its own core, was full: more CPUs for PostgreSQL and the load generator
// (-cpus app=…,rest=…) or PostgreSQL on a host of its own (DATABASE_URL)
// would lift the bound".
func boundClause(bound []*results.Capacity, first bool) string {
	verb := " met it up to at least "
	if first {
		verb = " met the SLO up to at least "
	}
	var each, lifts []string
	for i, c := range bound {
		bound := " req/s (" + strings.Join(append([]string{"machine-bound: " + c.BoundReason()}, spreadText(c)...), "; ") + ")"
		s := c.App + " up to at least " + rateText(math.Round(c.Rate)) + bound
		if i == 0 {
			s = c.App + verb + rateText(math.Round(c.Rate)) + bound
		}
		each = append(each, s)
		if l := boundLift(c); !slices.Contains(lifts, l) {
			lifts = append(lifts, l)
		}
	}
	where, would := "its own core", "would lift the bound"
	if len(bound) > 1 {
		where, would = "their own cores", "would lift the bounds"
	}
	return listText(each) + ", where the machine, not " + where + ", was full: " + strings.Join(lifts, ", or ") + " " + would
}

// unconfirmedClause says how far an app went whose capacity no
// full-length run confirmed: "express-cluster met it only in its 5s
// probes, up to 703 req/s, and in no full-length run down to 569 req/s".
func unconfirmedClause(run *results.Run, c *results.Capacity, verb string) string {
	probes := "its probes"
	if cs := run.Settings.Capacity; cs != nil && cs.ProbeDuration > 0 {
		probes = "its " + durationText(cs.ProbeDuration) + " probes"
	}
	upTo := rateText(math.Round(c.Rate)) + " req/s"
	if c.Status == results.CapacityCapped {
		upTo = "the search's cap of " + upTo
	}
	upTo += spreadClause(c)
	s := c.App + " " + verb + " only in " + probes + ", up to " + upTo
	if low := lowestConfirmation(c); low > 0 {
		return s + ", and in no full-length run down to " + rateText(math.Round(low)) + " req/s"
	}
	return s + ", and no full-length run confirmed it"
}

// spreadClause is spreadText in parentheses, after a capacity the
// bottom line quotes: " (the median of 3 searches, which ranged 480–520
// req/s)";
// nothing for a single search.
func spreadClause(c *results.Capacity) string {
	if s := spreadText(c); len(s) > 0 {
		return " (" + s[0] + ")"
	}
	return ""
}

// spreadText says that c is the median of repeated searches, their range,
// and when that range is wide: "the median of 3 searches, which ranged
// 480–520 req/s", "the median of 3 searches, which ranged widely: 102–130
// req/s"; none for a single search.
func spreadText(c *results.Capacity) []string {
	if !c.Repeated() {
		return nil
	}
	lo, hi, _ := c.Range()
	span := rateText(math.Round(lo)) + "–" + rateText(math.Round(hi)) + " req/s"
	of, leftOut := medianOf(c)
	if c.WideSpread() {
		return []string{fmt.Sprintf("the median of %s searches%s, which ranged widely: %s", of, leftOut, span)}
	}
	return []string{fmt.Sprintf("the median of %s searches%s, which ranged %s", of, leftOut, span)}
}

// noneAt is an app whose search missed the SLO at its first rate.
type noneAt struct{ app, rate string }

// noneClause says which apps missed the SLO at their first rate, naming
// the SLO when no other app met it: "graphql and htmx did not meet it even
// at 100 req/s".
func noneClause(none []noneAt, first bool) string {
	verb := " did not meet it even at "
	if first {
		verb = " did not meet the SLO even at "
	}
	same := true
	var apps, each []string
	for _, n := range none {
		same = same && n.rate == none[0].rate
		apps = append(apps, n.app)
		each = append(each, n.app+verb+n.rate)
	}
	if same {
		return listText(apps) + verb + none[0].rate
	}
	return listText(each)
}

// cpuShareSentence compares CPU per request on the first scenario where at
// least two apps have it, against the cheapest, with the layer that took
// the most of each dearer app's CPU when its run was profiled.
func cpuShareSentence(l layout, bs []basis) string {
	for _, b := range bs {
		var costed []*results.Result
		for _, a := range l.apps {
			if r := b.runs[a]; r != nil && appCPUPerRequest(r) && cpuResolved(r) && r.AppCost.CPUMsPerRequest > 0 {
				costed = append(costed, r)
			}
		}
		if len(costed) < 2 {
			continue
		}
		slices.SortStableFunc(costed, func(x, y *results.Result) int {
			return cmp.Compare(x.AppCost.CPUMsPerRequest, y.AppCost.CPUMsPerRequest)
		})
		base := costed[0]
		var parts []string
		for _, r := range costed[1:] {
			s := fmt.Sprintf("%s spent %s %s's CPU per request (%s vs %s ms)", r.App,
				ratio(r.AppCost.CPUMsPerRequest, base.AppCost.CPUMsPerRequest), base.App, cpuMsText(r), cpuMsText(base))
			if p := r.CPUProfile; p != nil {
				if layer, share := topLayer(p); layer != "" {
					s += fmt.Sprintf(", %s of it in %s", percent(share, 0), layer)
				}
			}
			parts = append(parts, s)
		}
		return fmt.Sprintf("On %s (%s), %s.", b.scenario, b.source, strings.Join(parts, "; "))
	}
	return ""
}

// memorySentence compares the apps' RSS in the chosen runs.
func memorySentence(l layout, bs []basis) string {
	type mem struct {
		app string
		mb  float64
	}
	var ms []mem
	for _, a := range l.apps {
		if v := maxRSS(bs, a); v > 0 {
			ms = append(ms, mem{a, v})
		}
	}
	if len(ms) < 2 {
		return ""
	}
	slices.SortStableFunc(ms, func(x, y mem) int { return cmp.Compare(x.mb, y.mb) })
	var parts []string
	for _, m := range ms[1:] {
		parts = append(parts, fmt.Sprintf("%s %s that (%s MB)", m.app, ratio(m.mb, ms[0].mb), fixed(m.mb, 1)))
	}
	return fmt.Sprintf("%s used the least memory, %s MB RSS at most; %s.", ms[0].app, fixed(ms[0].mb, 1), listText(parts))
}

// sizeSentence compares each app's deploy (a Go binary, a Node.js folder)
// and hand-written lines with those of the app with the smallest deploy.
func sizeSentence(run *results.Run) string {
	var fs []results.StackFacts
	for _, f := range run.Stacks {
		if deployedMB(f) > 0 {
			fs = append(fs, f)
		}
	}
	if len(fs) < 2 {
		return ""
	}
	slices.SortStableFunc(fs, func(x, y results.StackFacts) int { return cmp.Compare(deployedMB(x), deployedMB(y)) })
	base, w := fs[0], wordsOf(run)
	var parts []string
	for _, f := range fs[1:] {
		s := fmt.Sprintf("%s's %s is %s %s's (%s vs %s MB)", f.App, w.deployNoun, ratio(deployedMB(f), deployedMB(base)), base.App,
			fixed(deployedMB(f), 1), fixed(deployedMB(base), 1))
		if b, n := base.Own.Code(), f.Own.Code(); b > 0 && n > 0 {
			s += fmt.Sprintf(", with %s its hand-written %s lines (%s vs %s)", ratio(float64(n), float64(b)), w.code,
				thousands(float64(n)), thousands(float64(b)))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ") + "."
}
