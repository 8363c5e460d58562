package report_test

import (
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// slimRun is a light run of read-many and read-slim on three apps: rest
// sends the full list for both, graphql and htmx a slim answer.
func slimRun(t *testing.T) *results.Run {
	t.Helper()
	run := runFrame()
	run.Settings.Profiles = []string{"light"}
	run.Settings.Scenarios = []string{"read-many", "read-slim"}
	run.Settings.Rates = map[string]map[string]float64{"light": {"read-many": 20, "read-slim": 20}}
	run.Validations = nil
	type figures struct{ bytes, cpuMs, dbCPUMs float64 }
	for _, s := range []struct {
		scenario string
		apps     map[string]figures
	}{
		{"read-many", map[string]figures{"rest": {250_000, 8, 1.2}, "graphql": {260_000, 20, 1.2}, "htmx": {400_000, 14, 1.2}}},
		{"read-slim", map[string]figures{"rest": {250_000, 8, 1.2}, "graphql": {40_000, 4, 1.2}, "htmx": {45_000, 2, 0.6}}},
	} {
		for _, a := range appNames {
			r := measuredResult("light", "read-many", a)
			r.Scenario = s.scenario
			f := s.apps[a]
			r.BytesIn, r.AppCost.CPUMsPerRequest, r.DB.CPUMsPerRequest, r.DB.StatementsPerRequest = f.bytes, f.cpuMs, f.dbCPUMs, 1
			run.Results = append(run.Results, r)
		}
	}
	return run
}

// TestSlimFindings reads the read-slim findings: the smallest answer, each
// app's answer and CPU against its read-many, and the database's work.
func TestSlimFindings(t *testing.T) {
	wantFindings(t, report.Findings(slimRun(t)), []string{
		"light · read-slim: smallest answer: graphql at 40,000 B; htmx " + ratio(45, 40) + " that (45,000 B), rest " + ratio(250, 40) + " that (250,000 B).",
		"light · read-slim: least app CPU per request: htmx at 2.00 ms; graphql 2.00× that (4.00 ms), rest 4.00× that (8.00 ms).",
		"light · read-slim against read-many: rest's answer 1.00× (250,000 vs 250,000 B, 0.0% smaller), its CPU per request 1.00× (8.00 vs 8.00 ms); " +
			"graphql's answer 0.15× (40,000 vs 260,000 B, 84.6% smaller), its CPU per request 0.20× (4.00 vs 20.0 ms); " +
			"htmx's answer 0.11× (45,000 vs 400,000 B, 88.8% smaller), its CPU per request 0.14× (2.00 vs 14.0 ms).",
		"light · read-slim, the database: the same 1.00 SQL statements per request for rest, graphql and htmx; least PostgreSQL CPU per request: htmx at 0.60 ms; rest 2.00× that (1.20 ms), graphql 2.00× that (1.20 ms).",
	})

	run := slimRun(t)
	for i := range run.Results {
		if r := &run.Results[i]; r.Scenario == "read-slim" && r.App == "htmx" {
			r.DB.StatementsPerRequest = 2
		}
	}
	wantFindings(t, report.Findings(run), []string{
		"light · read-slim, the database: SQL statements per request: rest 1.00, graphql 1.00, htmx 2.00;",
	})
}
