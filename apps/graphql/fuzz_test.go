package main

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"crudbench/db"
)

// FuzzCreateVacancy sends createVacancy with arbitrary values. Whatever they
// are, the answer is a vacancy that holds exactly what was sent, or
// BAD_USER_INPUT naming fields and nothing stored; never INTERNAL, never a
// 5xx. `go test` runs the seeds; `go test -fuzz FuzzCreateVacancy` explores.
func FuzzCreateVacancy(f *testing.F) {
	f.Add("Research software engineer", "Computing", "FULL_TIME", int64(100), int64(200), "2026-01-01", "2026-03-31", "Build it.")
	f.Add("", "", "", int64(0), int64(0), "", "", "")
	f.Add(" ", "Dept", "PART_TIME", int64(-1), int64(1), "2026-02-30", "1999-01-01", "x")
	f.Add(strings.Repeat("t", 201), "d", "CONTRACT", int64(5), int64(4), "0001-01-01", "9999-12-31", "\x00")
	f.Add("Tab\there", "Ökonomie", "full_time", int64(1)<<40, int64(1)<<41, "2026-1-1", "", "multi\nline")
	f.Add("日本語", "\xff\xfe", "OPEN", int64(0), int64(100_000_000_000), "2200-12-31", "2201-01-01", strings.Repeat("d", 10001))
	f.Add("ok", "ok", "CONTRACT", int64(0), int64(100_000_000_001), "1900-01-01", "1899-12-31", "")

	app := startApp(f)
	token := app.login(f, "editor")
	query := loadQuery(f, "create_vacancy")
	count := func(t *testing.T) int {
		page, err := app.Store.FindVacancies(context.Background(), db.VacancyFilter{Limit: db.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		return len(page.Vacancies)
	}

	f.Fuzz(func(t *testing.T, title, department, employmentType string, minCents, maxCents int64, opensOn, closesOn, description string) {
		input := map[string]any{
			"title": title, "department": department, "location": "Berlin", "employmentType": employmentType,
			"salaryMinCents": minCents, "salaryMaxCents": maxCents, "opensOn": opensOn, "description": description,
		}
		if closesOn != "" {
			input["closesOn"] = closesOn
		}
		before := count(t)
		resp := app.post(t, token, query, map[string]any{"input": input})
		if resp.Status >= 500 {
			t.Fatalf("HTTP %d: %+v", resp.Status, resp.Errors)
		}
		if len(resp.Errors) == 0 {
			var data struct{ CreateVacancy vacancy }
			resp.decode(t, &data)
			v := data.CreateVacancy
			// JSON carries text as UTF-8: invalid bytes arrive as U+FFFD.
			if v.Title != strings.ToValidUTF8(title, "\uFFFD") || v.Department != strings.ToValidUTF8(department, "\uFFFD") ||
				v.EmploymentType != employmentType || v.OpensOn != opensOn || v.Version != 1 {
				t.Fatalf("stored %+v for %q %q %q %q", v, title, department, employmentType, opensOn)
			}
			if after := count(t); after != before+1 {
				t.Fatalf("%d vacancies after a create, want %d", after, before+1)
			}
			return
		}
		for _, e := range resp.Errors {
			switch e.Extensions.Code {
			case codeBadUserInput:
				if len(e.Extensions.Fields) == 0 {
					t.Errorf("BAD_USER_INPUT without fields: %+v", e)
				}
			case "GRAPHQL_VALIDATION_FAILED":
			default:
				t.Errorf("error %+v", e)
			}
		}
		if after := count(t); after != before {
			t.Fatalf("a refused create changed the vacancies: %d -> %d", before, after)
		}
	})
}

// FuzzQuery sends arbitrary query text. The parser, the validator and the
// limits must answer every one with a GraphQL response: no 5xx, no hang, no
// INTERNAL.
func FuzzQuery(f *testing.F) {
	for _, seed := range []string{
		`{ person(id: 1) { id appointments { stipends { payer { code } } } } }`,
		`{ persons(first: 2) { nodes { ...P } } } fragment P on Person { id appointments { person { ...P } } }`,
		`{ vacancies(status: OPEN, first: 1001) { nodes { id } } }`,
		`query ($x: Int = "a") { persons(first: $x) { nodes { id } } }`,
		`{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }`,
		`{ person(id: "1") { id } person(id: "2") { id } }`,
		`mutation { deleteVacancy(id: 1) }`,
		`{ person(id: 1) { id } } }`,
		`{ person(id: 1) @skip(if: true) { id } __typename }`,
		"{ \"\x00\" }",
		strings.Repeat("{", 200),
		`subscription { x }`,
		``,
	} {
		f.Add(seed)
	}
	app := startApp(f)
	token := app.login(f, "viewer")
	f.Fuzz(func(t *testing.T, query string) {
		if !utf8.ValidString(query) {
			query = strings.ToValidUTF8(query, "\uFFFD")
		}
		resp := app.post(t, token, query, nil)
		if resp.Status >= 500 {
			t.Fatalf("HTTP %d for %q: %+v", resp.Status, query, resp.Errors)
		}
		for _, e := range resp.Errors {
			if e.Extensions.Code == codeInternal {
				t.Fatalf("INTERNAL for %q: %+v", query, e)
			}
		}
	})
}
