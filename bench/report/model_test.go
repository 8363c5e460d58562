package report_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// closedRun is a closed loop of 10 clients: read-one on every app, light.
func closedRun(t *testing.T) *results.Run {
	t.Helper()
	run := runFrame()
	run.Settings.Profiles, run.Settings.Scenarios = []string{"light"}, []string{"read-one"}
	run.Settings.Model, run.Settings.Clients = results.ModelClosed, 10
	for _, a := range appNames {
		run.Validations = append(run.Validations, results.Validation{Scenario: "read-one", App: a, OK: true})
		r := measuredResult("light", "read-one", a)
		r.TargetRate, r.AchievedRate, r.Throughput = 0, 380, 379.5
		run.Results = append(run.Results, r)
	}
	return run
}

func TestClosedLoopLabelled(t *testing.T) {
	dir := written(t, closedRun(t))
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	for _, want := range []string{
		"mode embedded, load a closed loop of 10 client(s), commit",
		"light · read-one: all 3 apps held the closed loop's load (no target rate).",
		"## Results: light — closed loop of 10 client(s)\n",
		"| scenario | app | clients | served req/s | throughput req/s |",
		"| read-one | rest | 10 | 380.0 | 379.5 |",
		"Closed loop: each run drives one app with one scenario from 10 client(s)",
		"(coordinated omission)",
		"Why throughput at 10 client(s) is not a capacity",
		"| load | closed loop (-model closed): 10 client(s), each sending its next request when its last was answered, no think time |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	for _, unwanted := range []string{"### Target rates", "at a constant target rate"} {
		if strings.Contains(md, unwanted) {
			t.Errorf("report.md of a closed loop says %q", unwanted)
		}
	}
	page := readFile(t, filepath.Join(dir, report.HTMLFile))
	if !strings.Contains(page, "Results: light — closed loop of 10 client(s)</h2>") || !strings.Contains(page, "coordinated omission") {
		t.Error("report.html does not label the closed loop's results")
	}
	if strings.Contains(page, "% of target") {
		t.Error("report.html charts a closed loop's throughput against a target it did not have")
	}

	var console strings.Builder
	report.Summary(&console, closedRun(t))
	if s := console.String(); !strings.Contains(s, "Profile light — closed loop of 10 client(s)") || !regexp.MustCompile(`CLIENTS +SERVED`).MatchString(s) ||
		!regexp.MustCompile(`read-one +rest +10 +380\.0 `).MatchString(s) {
		t.Errorf("console summary of a closed loop:\n%s", s)
	}

	open := readFile(t, filepath.Join(written(t, newRun(t)), report.MarkdownFile))
	for _, want := range []string{"## Results: light\n", "| load | open (-model open):", "| scenario | app | target req/s | achieved req/s |", "### Target rates"} {
		if !strings.Contains(open, want) {
			t.Errorf("an open run's report.md lacks %q", want)
		}
	}
	if strings.Contains(open, "coordinated omission") {
		t.Error("an open run's report.md explains the closed loop")
	}
}
