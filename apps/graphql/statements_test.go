package main

import (
	"strings"
	"testing"
)

// The nested reads go through per-request dataloaders: a query costs a fixed
// number of SQL statements however many rows it walks (no N+1).
func TestStatementsPerQuery(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")

	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  int
	}{
		// person, its appointments, their stipends, their fundings.
		{"showcase detail", loadQuery(t, "showcase"), map[string]any{"id": "1"}, 4},
		// 50 persons, their appointments, the appointments' stipends.
		{"persons with nested stipends", `{ persons(first: 50) { nodes { id appointments { id stipends { id payer { code } } } } } }`, nil, 3},
		// a page of persons with every nested list.
		{"persons with every nested list", `{ persons(first: 20) { nodes { id appointments { id stipends { id } fundings { percent } } } } }`, nil, 4},
		// vacancies, the persons who filled them, their appointments.
		{"vacancies with their persons", `{ vacancies(first: 200) { nodes { id filledByPerson { id appointments { id } } } } }`, nil, 3},
		// the way back up: person, appointments, their (one) person.
		{"appointment back to person", `{ person(id: 1) { appointments { person { id lastName } } } }`, nil, 3},
		{"open vacancies", loadQuery(t, "open_vacancies"), nil, 1},
		{"all persons", loadQuery(t, "all_persons"), nil, 1},
		{"slim persons", loadQuery(t, "slim_persons"), nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Batching depends on timing; it must hold every time.
			for range 3 {
				var resp *gqlResponse
				got := app.recordStatements(func() { resp = app.post(t, token, tt.query, tt.vars) })
				if len(resp.Errors) > 0 {
					t.Fatalf("errors: %+v", resp.Errors)
				}
				if len(got) != tt.want {
					t.Fatalf("%d SQL statements, want %d:\n%s", len(got), tt.want, strings.Join(got, "\n"))
				}
			}
		})
	}
}
