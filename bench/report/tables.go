package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"crudbench/bench/results"
)

// table is one table of the report, built once and rendered by both the
// Markdown and the HTML writer so the two always show the same numbers.
type table struct {
	Header []string
	// Right marks the numeric columns, aligned right.
	Right []bool
	Rows  []row
}

type row struct {
	Cells []cell
	// Class is the verdict of a result row ("ok", "saturated", …) for
	// colouring; empty elsewhere.
	Class string
}

type cell struct {
	Text string
	// Href makes the cell a link (a path relative to the report).
	Href string
	// Verdict marks the cell that holds a verdict, coloured by its row.
	Verdict bool
	// Wrap lets a cell of running text wrap instead of widening its table.
	Wrap bool
}

func texts(s ...string) []cell {
	cs := make([]cell, len(s))
	for i, t := range s {
		cs[i] = cell{Text: t}
	}
	return cs
}

// layout is the order things appear in: the settings' order first (light,
// medium, high as the user listed them), then anything the results hold that
// the settings do not, in order of appearance — nothing is ever hidden.
type layout struct {
	profiles, scenarios, apps []string
}

func layoutOf(run *results.Run) layout {
	var l layout
	l.profiles = slices.Clone(run.Settings.Profiles)
	l.scenarios = slices.Clone(run.Settings.Scenarios)
	l.apps = slices.Clone(run.Settings.Apps)
	add := func(list *[]string, v string) {
		if !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	for _, v := range run.Validations {
		add(&l.scenarios, v.Scenario)
		add(&l.apps, v.App)
	}
	for _, r := range run.Results {
		add(&l.profiles, r.Profile)
		add(&l.scenarios, r.Scenario)
		add(&l.apps, r.App)
	}
	for _, c := range run.Capacities {
		add(&l.scenarios, c.Scenario)
		add(&l.apps, c.App)
	}
	for _, f := range run.Stacks {
		add(&l.apps, f.App)
	}
	for _, p := range run.Pages {
		add(&l.scenarios, p.Scenario)
		add(&l.apps, p.FrontEnd)
	}
	return l
}

// resultsOf returns the results of one profile ordered by scenario, then app.
func (l layout) resultsOf(run *results.Run, profile string) []*results.Result {
	var rs []*results.Result
	for i := range run.Results {
		if run.Results[i].Profile == profile {
			rs = append(rs, &run.Results[i])
		}
	}
	slices.SortStableFunc(rs, func(a, b *results.Result) int {
		return cmp.Or(
			cmp.Compare(slices.Index(l.scenarios, a.Scenario), slices.Index(l.scenarios, b.Scenario)),
			cmp.Compare(slices.Index(l.apps, a.App), slices.Index(l.apps, b.App)))
	})
	return rs
}

// scenarioGroups splits ordered results into runs of the same scenario.
func scenarioGroups(rs []*results.Result) [][]*results.Result {
	var groups [][]*results.Result
	for i, r := range rs {
		if i == 0 || rs[i-1].Scenario != r.Scenario {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], r)
	}
	return groups
}

// resultTable is the main table of one profile. The runs of a closed loop
// of clients (above zero) have no target: their first rate columns are
// the clients and the rate they were served at.
func resultTable(rs []*results.Result, clients int) table {
	t := table{
		Header: []string{"scenario", "app", "target req/s", "achieved req/s", "throughput req/s", "success",
			"p50 ms", "p90 ms", "p99 ms", "max ms", "bytes/resp",
			"app CPU mean", "app CPU max", "CPU-ms/req", "pool wait ms/req", "RSS mean MB", "RSS max MB",
			"DB stmts/req", "DB CPU", "verdict"},
		Right: []bool{false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false},
	}
	if clients > 0 {
		t.Header[colTarget], t.Header[colAchieved] = "clients", "served req/s"
	}
	for _, r := range rs {
		cells := texts(resultCells(r)...)
		if clients > 0 {
			cells[colTarget].Text = countText(clients)
		}
		cells[colVerdict].Verdict = true
		t.Rows = append(t.Rows, row{Cells: cells, Class: r.Verdict})
	}
	return t
}

// Columns of the result table, named so the console summary can pick some.
const (
	colScenario = iota
	colApp
	colTarget
	colAchieved
	colThroughput
	colSuccess
	colP50
	colP90
	colP99
	colMax
	colBytes
	colCPUMean
	colCPUMax
	colCPUMs
	colPoolWait
	colRSSMean
	colRSSMax
	colStmts
	colDBCPU
	colVerdict
	numCols
)

// resultCells is one result's row of the result table, numCols cells.
func resultCells(r *results.Result) []string {
	c := make([]string, 0, numCols)
	target := na
	if r.TargetRate > 0 {
		target = rateText(r.TargetRate)
	}
	c = append(c, r.Scenario, r.App, target)
	if !r.Measured() {
		for range colVerdict - colAchieved {
			c = append(c, na)
		}
		return append(c, verdictText(r))
	}
	c = append(c, fixed(r.AchievedRate, 1), fixed(r.Throughput, 1))
	if hasRequests(r) {
		l := r.Latency
		c = append(c, percent(r.SuccessRatio, 2), human(l.P50), human(l.P90), human(l.P99), human(l.Max), thousands(r.BytesIn))
	} else {
		c = append(c, na, na, na, na, na, na)
	}
	a := r.AppCost
	if a.Available {
		c = append(c, percent(a.CPUMean, 1), percent(a.CPUMax, 1))
	} else {
		c = append(c, na, na)
	}
	if appCPUPerRequest(r) {
		c = append(c, cpuMsText(r))
	} else {
		c = append(c, na)
	}
	c = append(c, poolWaitText(a.Pool))
	if a.Available {
		c = append(c, fixed(a.RSSMeanMB, 1), fixed(a.RSSMaxMB, 1))
	} else {
		c = append(c, na, na)
	}
	if r.DB.Available && r.Throughput > 0 {
		c = append(c, fixed(r.DB.StatementsPerRequest, 2))
	} else {
		c = append(c, na)
	}
	if r.DB.CPUAvailable {
		c = append(c, percent(r.DB.CPUMean, 1))
	} else {
		c = append(c, na)
	}
	return append(c, verdictText(r))
}

// hasRepeats reports whether the run folded several repeats into medians.
func hasRepeats(run *results.Run) bool {
	if run.Settings.Repeat > 1 {
		return true
	}
	for _, r := range run.Results {
		if len(r.Repeats) > 1 || r.Spread != nil {
			return true
		}
	}
	return false
}

// spreadTable shows max − min across repeats of one profile's results.
func spreadTable(rs []*results.Result) table {
	t := table{
		Header: []string{"scenario", "app", "repeats", "achieved req/s", "throughput req/s", "success", "p50 ms", "p99 ms", "app CPU mean", "RSS max MB"},
		Right:  []bool{false, false, true, true, true, true, true, true, true, true},
	}
	for _, r := range rs {
		c := []string{r.Scenario, r.App, fmt.Sprint(len(r.Repeats))}
		if s := r.Spread; s != nil && r.Measured() {
			cpu, rss := na, na
			if r.AppCost.Available {
				cpu, rss = percent(s.CPUMean, 1), fixed(s.RSSMaxMB, 1)
			}
			c = append(c, fixed(s.AchievedRate, 1), fixed(s.Throughput, 1), percent(s.SuccessRatio, 2), human(s.P50), human(s.P99), cpu, rss)
		} else {
			c = append(c, na, na, na, na, na, na, na)
		}
		t.Rows = append(t.Rows, row{Cells: texts(c...), Class: r.Verdict})
	}
	return t
}

// errorTable lists the measured runs that had failed requests: their status
// codes and first distinct errors.
func errorTable(run *results.Run, l layout) table {
	t := table{Header: []string{"profile", "scenario", "app", "success", "status codes", "first errors"},
		Right: []bool{false, false, false, true, false, false}}
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			if !r.Measured() || (r.SuccessRatio >= 1 && len(r.Errors) == 0) {
				continue
			}
			codes := make([]string, 0, len(r.StatusCodes))
			for _, k := range slices.Sorted(maps.Keys(r.StatusCodes)) {
				codes = append(codes, fmt.Sprintf("%s: %d", k, r.StatusCodes[k]))
			}
			t.Rows = append(t.Rows, row{Cells: texts(p, r.Scenario, r.App, percent(r.SuccessRatio, 2),
				strings.Join(codes, ", "), strings.Join(r.Errors, "; ")), Class: r.Verdict})
		}
	}
	return t
}

// costLines describe the load generator's and the sampler's own cost.
func costLines(run *results.Run) []string {
	r := run.Runner
	runner := "Load generator (this runner): CPU and memory not available."
	switch {
	case run.Settings.Shards > 0 && r.Available:
		runner = fmt.Sprintf("Load generators (%d shards, merged): CPU mean %s of one core, added up over the shards, max %s; RSS max %s MB, the largest shard's.",
			run.Settings.Shards, percent(r.CPUMean, 1), percent(r.CPUMax, 1), fixed(r.RSSMaxMB, 1))
	case r.Available:
		share := ""
		if n := run.Environment.CPUCount; n > 0 {
			share = fmt.Sprintf(" (%s of this %d-core machine)", percent(r.CPUMean/float64(n), 1), n)
		}
		runner = fmt.Sprintf("Load generator (this runner): CPU mean %s of one core%s, max %s; RSS mean %s MB, max %s MB. It shares the machine with the apps and PostgreSQL.",
			percent(r.CPUMean, 1), share, percent(r.CPUMax, 1), fixed(r.RSSMeanMB, 1), fixed(r.RSSMaxMB, 1))
	}
	lines := []string{runner, fmt.Sprintf("Sampler overhead: %s of one core (goal: under 1%%).", percent(run.SamplerOverhead, 2))}
	if s := run.Settings.Shard; s != nil {
		lines = append(lines, fmt.Sprintf("This runner was shard %d of %d of one schedule: it sent one request in %d, so its target rate, achieved rate and throughput are its share. The apps and PostgreSQL served every shard at once, so CPU-ms and statements per request here divide every shard's cost by this shard's requests: go run ./bench merge joins the shards' folders and divides by all of them.",
			s.Index, s.Count, s.Count))
	}
	return lines
}

// filesTable links each result's raw vegeta results and samples.
func filesTable(run *results.Run, l layout) table {
	t := table{Header: []string{"profile", "scenario", "app", "raw results (vegeta)", "samples (CSV)"},
		Right: []bool{false, false, false, false, false}}
	link := func(p string) cell {
		if p == "" {
			return cell{Text: "–"}
		}
		return cell{Text: p, Href: p}
	}
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			if r.RawFile == "" && r.SamplesFile == "" {
				continue
			}
			t.Rows = append(t.Rows, row{Cells: append(texts(p, r.Scenario, r.App), link(r.RawFile), link(r.SamplesFile))})
		}
	}
	return t
}

// howToRead explains the tables; the repeats sentence only when it applies.
func howToRead(run *results.Run) []string {
	if n := clientsOf(run); n > 0 {
		return append(closedLoopMethod(n), howToReadOpen(run)[1:]...)
	}
	return howToReadOpen(run)
}

// howToReadOpen explains the tables of an open run.
func howToReadOpen(run *results.Run) []string {
	p := []string{
		"Each run drives one app with one scenario at a constant target rate (requests per second) for the measured window; a warm-up before it is discarded. " +
			"Requests are sent on schedule whatever the server does (open model), so a slow server makes requests queue instead of slowing the load down. " +
			"Target is the rate asked for; achieved is the rate the load generator really sent in the window (below target means the load generator itself fell behind); " +
			"throughput is successful responses per second.",
		results.VerdictRule(run.Settings.SLOP99),
		"Latencies are in milliseconds over the measured window (p99: 99% of requests were faster). Bytes/resp is the mean response body size. " +
			"App CPU is a fraction of one core (100% = one core fully busy; more than 100% means several cores): the mean over the window and the highest one-second stretch. " +
			"CPU-ms/req is the app's CPU time divided by its successful requests, the cost of one request, comparable across rates and apps. " +
			"CPU time is read in nanoseconds from each process's CPU clock, but a reading may lack up to one scheduler tick per busy thread: " +
			"where that could make up the whole figure, it shows as below resolution, with the most it can be. " +
			"RSS is the app's resident memory in MB. DB stmts/req is the number of SQL statements PostgreSQL executed per successful request (pg_stat_statements); " +
			"DB CPU is the PostgreSQL server processes' CPU in the same unit as app CPU.",
		"n/a marks a value that was not measured (a process that could not be seen, a run that was not made): it is never a zero standing in for a measurement. " +
			"DB CPU is n/a whenever the PostgreSQL server's processes are not visible to the runner as the server numbers them: always under docker compose (the server reports its pids in its own container) and for a server on another host. " +
			"Likewise logs/ holds only the logs of processes the runner started itself: it is empty when the runner attaches to running apps (docker compose keeps theirs: docker compose logs).",
	}
	if hasRepeats(run) {
		p = append(p, fmt.Sprintf("Each run was repeated (%d times): the tables show the median of the repeats, which one disturbed repeat cannot drag the way it drags a mean, and the spread tables give max − min across repeats.", max(run.Settings.Repeat, maxRepeats(run))))
	}
	return p
}

func maxRepeats(run *results.Run) int {
	n := 0
	for _, r := range run.Results {
		n = max(n, len(r.Repeats))
	}
	return n
}
