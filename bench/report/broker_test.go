package report_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// TestStackFinding checks that a run with an amqp app states each app's
// CPU per request end to end, the broker's added to the amqp app's, and
// that the broker's table follows the profile's results; a run without
// one says neither.
func TestStackFinding(t *testing.T) {
	result := func(app string, appMs, dbMs float64, broker *results.BrokerCost) results.Result {
		return results.Result{
			Profile: "light", Scenario: "read-one", App: app, Verdict: results.VerdictOK,
			TargetRate: 100, AchievedRate: 100, Throughput: 100, Requests: 200, SuccessRatio: 1,
			Latency: results.Latency{P50: 1, P90: 2, P95: 2, P99: 3, Max: 4, Mean: 1},
			AppCost: results.ProcessCost{Available: true, CPUMean: 0.1, CPUMax: 0.1, CPUMsPerRequest: appMs, RSSMeanMB: 20, RSSMaxMB: 20},
			DB:      results.DBCost{Available: true, CPUAvailable: true, CPUMsPerRequest: dbMs},
			Broker:  broker,
		}
	}
	run := &results.Run{
		Settings: results.Settings{Profiles: []string{"light"}, Scenarios: []string{"read-one"}, Apps: []string{"rest", "amqp"},
			AppInfo: []results.App{{Name: "rest", Kind: "rest"}, {Name: "amqp", Kind: "amqp"}}},
		Results: []results.Result{
			result("rest", 0.9, 0.5, nil),
			result("amqp", 0.8, 0.5, &results.BrokerCost{CPUAvailable: true, CPUMean: 0.06, CPUMsPerRequest: 0.6, RSSMeanMB: 90, RSSMaxMB: 91, QueueAvailable: true, QueueDepthMean: 1.5, QueueDepthMax: 4}),
		},
	}
	want := "light · read-one: CPU per request end to end (app + broker, for an amqp app, + PostgreSQL): rest 0.90 + 0.50 = 1.40 ms; amqp 0.80 + 0.60 + 0.50 = 1.90 ms."
	if got := report.Findings(run); !slices.Contains(got, want) {
		t.Errorf("findings %q\nwant among them %q", got, want)
	}
	if md := markdownOf(t, run); !strings.Contains(md, "### The broker: light") || !strings.Contains(md, "| read-one | amqp | 6.0% | 0.60 | 90.0 | 91.0 | 1.5 | 4 |") {
		t.Errorf("the report has no broker table with the amqp run:\n%s", md)
	}

	run.Results = run.Results[:1]
	run.Settings.Apps, run.Settings.AppInfo = run.Settings.Apps[:1], run.Settings.AppInfo[:1]
	for _, f := range report.Findings(run) {
		if strings.Contains(f, "end to end") {
			t.Errorf("a run without a broker states %q", f)
		}
	}
	if strings.Contains(markdownOf(t, run), "The broker") {
		t.Error("a run without a broker has a broker table")
	}
}

// markdownOf is the report.md that report.Write writes of run.
func markdownOf(t *testing.T, run *results.Run) string {
	t.Helper()
	dir := t.TempDir()
	if err := report.Write(dir, run); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
