package report_test

import (
	"path/filepath"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// repeated replaces the capacity of (scenario, app) in run with the fold
// of searches at rates, each a search like the one it replaces: held
// when its rate's entry in held is true, stopped by stops' entry.
func repeated(t *testing.T, run *results.Run, scenario, app string, rates []float64, held []bool, stops []string) {
	t.Helper()
	for i := range run.Capacities {
		c := &run.Capacities[i]
		if c.Scenario != scenario || c.App != app {
			continue
		}
		var each []results.Capacity
		for n, rate := range rates {
			s := found(scenario, app, rate, rate*1.05, stops[n], c.StopDetail, 0.5, 30)
			s.Held, s.Search, s.PID = held[n], n+1, 4000+n
			each = append(each, s)
		}
		*c = results.FoldCapacities(each)
		return
	}
	t.Fatalf("no capacity of %s on %s", app, scenario)
}

// TestCapacityRepeats: repeated searches show as their median with the
// range in every capacity table and in the bottom line, every search's
// figure and probes listed; a range over ±10% of the median is named
// in the findings and called wide, one within it is not.
func TestCapacityRepeats(t *testing.T) {
	spike, cpu, pg := results.StopSpike, results.StopAppCPU, results.StopPostgresCPU
	tests := []struct {
		name            string
		rates           []float64
		held            []bool
		stops           []string
		cell, sentence  string
		each            string
		finding         string
		absentFromPage  []string
		wantProbeBlocks []string
	}{
		{
			name: "narrow", rates: []float64{1400, 1450, 1500}, held: []bool{true, true, true}, stops: []string{cpu, cpu, cpu},
			cell:     "| read-one | rest | 1450 (median of 3: 1400–1500) | found |",
			sentence: "On read-one, rest met the SLO up to 1450 req/s (the median of 3 searches, which ranged 1400–1500 req/s) on this machine, graphql up to 610 req/s;",
			each:     "| 1400, 1450, 1500 |",
			// 1500 is 3.4% over the median: no finding.
			absentFromPage:  []string{"moved across its"},
			wantProbeBlocks: []string{"read-one · rest · search 1 of 3 (pid 4000)", "read-one · rest · search 2 of 3 (pid 4001), the median", "read-one · rest · search 3 of 3 (pid 4002)"},
		},
		{
			name: "wide", rates: []float64{383, 703, 512}, held: []bool{true, true, true}, stops: []string{spike, spike, cpu},
			cell:     "| read-one | rest | 512 (median of 3: 383–703, wide) | found |",
			sentence: "On read-one, rest met the SLO up to 512 req/s (the median of 3 searches, which ranged widely: 383–703 req/s) on this machine, graphql up to 610 req/s;",
			each:     "| 383, 703, 512 |",
			finding:  "The capacity of rest on read-one moved by more than ±10% of its median (512 req/s) across its 3 searches, from −25% to +37%: 383, 703, 512 req/s.",
		},
		{
			// One unconfirmed search of three does not pull the median up;
			// it is listed as what it is.
			name: "an unconfirmed minority", rates: []float64{1400, 2000, 1450}, held: []bool{true, false, true}, stops: []string{cpu, spike, cpu},
			cell:     "| read-one | rest | 1400 (median of 3 with 1 unconfirmed left out: 1400–2000, wide) | found |",
			sentence: "On read-one, rest met the SLO up to 1400 req/s (the median of 3 searches with 1 unconfirmed left out, which ranged widely: 1400–2000 req/s) on this machine, graphql up to 610 req/s;",
			each:     "| 1400, 2000 (unconfirmed), 1450 |",
		},
		{
			name: "an unconfirmed majority", rates: []float64{1400, 2000, 1450}, held: []bool{false, false, true}, stops: []string{spike, spike, cpu},
			cell:     "| read-one | rest | 1400 (unconfirmed; median of 2 unconfirmed of 3: 1400–2000, wide) | found |",
			sentence: "rest met it only in its 5s probes, up to 1400 req/s (the median of 2 unconfirmed of 3 searches, which ranged widely: 1400–2000 req/s), and in no full-length run down to 1400 req/s",
			each:     "| 1400 (unconfirmed), 2000 (unconfirmed), 1450 |",
		},
		{
			// The search below the median may have gone further: the
			// median is a lower bound.
			name: "a machine-bound search below the median", rates: []float64{1380, 1450, 1500}, held: []bool{true, true, true}, stops: []string{pg, cpu, cpu},
			cell:     "| read-one | rest | ≥ 1450 (machine-bound: postgres-cpu; median of 3: 1380–1500) | found |",
			sentence: "rest met it up to at least 1450 req/s (machine-bound: postgres-cpu; the median of 3 searches, which ranged 1380–1500 req/s)",
			each:     "| ≥ 1380 (machine-bound: postgres-cpu), 1450, 1500 |",
		},
		{
			name: "a machine-bound search above the median", rates: []float64{1400, 1450, 1500}, held: []bool{true, true, true}, stops: []string{cpu, cpu, pg},
			cell: "| read-one | rest | 1450 (median of 3: 1400–1500) | found |",
			each: "| 1400, 1450, ≥ 1500 (machine-bound: postgres-cpu) |",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := bottomLineRun(t)
			repeated(t, run, "read-one", "rest", tt.rates, tt.held, tt.stops)
			dir := written(t, run)
			md := readFile(t, filepath.Join(dir, report.MarkdownFile))
			capacity := between(md, "## Capacity\n", "\n## ")
			for _, want := range []string{tt.cell, tt.each, "| capacity req/s | status |", "| each search req/s |"} {
				if !strings.Contains(capacity, want) {
					t.Errorf("capacity section lacks %q:\n%s", want, capacity)
				}
			}
			// Every search's probes are listed, by search.
			if want := "| read-one | rest | 3 | 50 |"; !strings.Contains(capacity, want) {
				t.Errorf("capacity probes lack the third search's first probe %q:\n%s", want, capacity)
			}
			bottom := between(md, "## Bottom line\n", "\n## ")
			if tt.sentence != "" && !strings.Contains(bottom, tt.sentence) {
				t.Errorf("bottom line lacks %q:\n%s", tt.sentence, bottom)
			}
			if cellFigure := strings.Split(tt.cell, " | ")[2]; !strings.Contains(bottom, "| rest | "+cellFigure+" |") {
				t.Errorf("bottom line table lacks rest's %q:\n%s", cellFigure, bottom)
			}
			findings := between(md, "## Findings\n", "\n## ")
			if tt.finding != "" && !strings.Contains(findings, tt.finding) {
				t.Errorf("findings lack %q:\n%s", tt.finding, findings)
			}
			for _, a := range tt.absentFromPage {
				if strings.Contains(md, a) {
					t.Errorf("report.md has %q", a)
				}
			}
			page := readFile(t, filepath.Join(dir, report.HTMLFile))
			for _, b := range tt.wantProbeBlocks {
				if !strings.Contains(page, b) {
					t.Errorf("report.html has no probes block %q", b)
				}
			}
		})
	}
}

// TestCapacityRepeatsNoneMedian: a median that met the SLO at no rate
// has no share to measure the range by; the finding lists the searches.
func TestCapacityRepeatsNoneMedian(t *testing.T) {
	run := bottomLineRun(t)
	none := results.Capacity{Scenario: "read-one", App: "rest", Status: results.CapacityNone, Upper: 50, StopReason: results.StopOtherLoad, Probes: []results.Probe{}}
	one, two := none, none
	one.Search, two.Search = 1, 2
	third := found("read-one", "rest", 141, 148, results.StopSpike, "a latency spike", 0.5, 30)
	third.Held, third.Search = false, 3
	for i := range run.Capacities {
		if c := &run.Capacities[i]; c.Scenario == "read-one" && c.App == "rest" {
			*c = results.FoldCapacities([]results.Capacity{one, two, third})
		}
	}
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	for _, want := range []string{
		"| read-one | rest | none below 50 (median of 3 with 1 unconfirmed left out: 0–141, wide) | none |",
		"The capacity of rest on read-one moved across its 3 searches, whose median met the SLO at no rate (none below 50 (median of 3 with 1 unconfirmed left out: 0–141, wide)): none below 50, none below 50, 141 (unconfirmed) req/s.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if strings.Contains(md, "n/a to n/a") {
		t.Error("report.md measures a range against a median of no rate")
	}
}
