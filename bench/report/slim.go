package report

import (
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/results"
	"crudbench/bench/scenario"
)

// slimFindings say what asking for less gave on read-slim, whose request
// is, per kind, what a client that needs each person's id and name gets:
// which app sent the fewest bytes, what each app's answer and CPU were
// against its own read-many answer in the same profile (the study's "a
// query for two fields came back 83.5% smaller"), and whether the
// database did less: statements and PostgreSQL CPU per request. group is
// the profile's read-slim results, all the profile's results.
func slimFindings(profile string, group, all []*results.Result) []string {
	var timed []*results.Result
	for _, r := range group {
		if hasRequests(r) && r.Throughput > 0 {
			timed = append(timed, r)
		}
	}
	if len(timed) == 0 {
		return nil
	}
	label := profile + " · " + scenario.ReadSlim
	var out []string
	if len(timed) > 1 {
		out = append(out, fmt.Sprintf("%s: smallest answer: %s", label,
			ranking(timed, func(r *results.Result) float64 { return r.BytesIn }, false, "B", thousands)))
	}
	if s := againstFull(label, timed, all); s != "" {
		out = append(out, s)
	}
	if s := slimDatabase(label, timed); s != "" {
		out = append(out, s)
	}
	return out
}

// againstFull compares each app's read-slim with its read-many of the
// same profile: bytes per response and, where both were measured above
// the readings' resolution, app CPU per request.
func againstFull(label string, slim, all []*results.Result) string {
	var parts []string
	for _, r := range slim {
		i := slices.IndexFunc(all, func(f *results.Result) bool {
			return f.App == r.App && f.Scenario == scenario.ReadMany && hasRequests(f) && f.BytesIn > 0
		})
		if i < 0 {
			continue
		}
		full := all[i]
		s := fmt.Sprintf("%s's answer %s (%s vs %s B, %s smaller)", r.App, ratio(r.BytesIn, full.BytesIn),
			thousands(r.BytesIn), thousands(full.BytesIn), percent(1-r.BytesIn/full.BytesIn, 1))
		if appCPUPerRequest(r) && appCPUPerRequest(full) && cpuResolved(r) && cpuResolved(full) {
			s += fmt.Sprintf(", its CPU per request %s (%s vs %s ms)", ratio(r.AppCost.CPUMsPerRequest, full.AppCost.CPUMsPerRequest),
				small(r.AppCost.CPUMsPerRequest), small(full.AppCost.CPUMsPerRequest))
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s against %s: %s.", label, scenario.ReadMany, strings.Join(parts, "; "))
}

// slimDatabase says what the database did per read-slim request: SQL
// statements (the same count means the same queries, though a query may
// read fewer columns of the same rows) and PostgreSQL CPU, which shows
// when it does.
func slimDatabase(label string, rs []*results.Result) string {
	var stmts, cpu []*results.Result
	for _, r := range rs {
		if r.DB.Available {
			stmts = append(stmts, r)
		}
		if r.DB.CPUAvailable {
			cpu = append(cpu, r)
		}
	}
	var parts []string
	if len(stmts) > 0 {
		same := true
		for _, r := range stmts {
			same = same && fixed(r.DB.StatementsPerRequest, 2) == fixed(stmts[0].DB.StatementsPerRequest, 2)
		}
		if same && len(stmts) > 1 {
			parts = append(parts, fmt.Sprintf("the same %s SQL statements per request for %s", fixed(stmts[0].DB.StatementsPerRequest, 2), listText(apps(stmts))))
		} else {
			each := make([]string, len(stmts))
			for i, r := range stmts {
				each[i] = fmt.Sprintf("%s %s", r.App, fixed(r.DB.StatementsPerRequest, 2))
			}
			parts = append(parts, "SQL statements per request: "+strings.Join(each, ", "))
		}
	}
	if len(cpu) > 1 {
		parts = append(parts, "least PostgreSQL CPU per request: "+strings.TrimSuffix(
			ranking(cpu, func(r *results.Result) float64 { return r.DB.CPUMsPerRequest }, false, "ms", small), "."))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s, the database: %s.", label, strings.Join(parts, "; "))
}
