package main

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"crudbench/db/seed"
)

// person is the showcase query's result.
type person struct {
	ID           string `json:"id"`
	EmployeeNo   int    `json:"employeeNo"`
	FirstName    string `json:"firstName"`
	LastName     string `json:"lastName"`
	Status       string `json:"status"`
	HiredOn      string `json:"hiredOn"`
	Version      int    `json:"version"`
	Appointments []struct {
		ID       string  `json:"id"`
		PersonID string  `json:"personId"`
		FTE      float64 `json:"fte"`
		Stipends []struct {
			AppointmentID string `json:"appointmentId"`
			AmountCents   int64  `json:"amountCents"`
			Payer         struct {
				Code string `json:"code"`
				Kind string `json:"kind"`
			} `json:"payer"`
		} `json:"stipends"`
		Fundings []struct {
			AppointmentID string  `json:"appointmentId"`
			Percent       float64 `json:"percent"`
			Payer         struct {
				Code string `json:"code"`
			} `json:"payer"`
		} `json:"fundings"`
	} `json:"appointments"`
}

func TestShowcasePerson(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")

	resp := app.post(t, token, loadQuery(t, "showcase"), map[string]any{"id": fmt.Sprint(seed.ShowcaseID)})
	if resp.Status != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("HTTP %d %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	var data struct{ Person person }
	resp.decode(t, &data)
	p := data.Person
	if p.ID != "1" || p.EmployeeNo != seed.ShowcaseEmployeeNo || p.FirstName != seed.ShowcaseFirstName ||
		p.LastName != seed.ShowcaseLastName || p.Status != "ACTIVE" || len(p.HiredOn) != len("2006-01-02") {
		t.Errorf("person = %+v", p)
	}
	if len(p.Appointments) != seed.ShowcaseAppointments {
		t.Fatalf("%d appointments, want %d", len(p.Appointments), seed.ShowcaseAppointments)
	}
	for _, a := range p.Appointments {
		if a.PersonID != p.ID || len(a.Stipends) != seed.ShowcaseStipends || len(a.Fundings) != seed.ShowcaseFundings {
			t.Errorf("appointment %s: person %s, %d stipends, %d fundings", a.ID, a.PersonID, len(a.Stipends), len(a.Fundings))
		}
		for _, s := range a.Stipends {
			if s.AppointmentID != a.ID || s.AmountCents <= 0 || s.Payer.Code == "" || s.Payer.Kind != strings.ToUpper(s.Payer.Kind) {
				t.Errorf("stipend %+v of appointment %s", s, a.ID)
			}
		}
		for _, f := range a.Fundings {
			if f.AppointmentID != a.ID || f.Percent <= 0 || f.Payer.Code == "" {
				t.Errorf("funding %+v of appointment %s", f, a.ID)
			}
		}
	}
}

// connection is a page of a list query.
type connection[T any] struct {
	Nodes    []T `json:"nodes"`
	PageInfo struct {
		EndCursor   *string `json:"endCursor"`
		HasNextPage bool    `json:"hasNextPage"`
	} `json:"pageInfo"`
}

type listedPerson struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"email"`
	Status    string `json:"status"`
}

func TestPersons(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")
	const query = `query ($first: Int, $after: String, $search: String) {
		persons(first: $first, after: $after, search: $search) {
			nodes { id firstName lastName email status }
			pageInfo { endCursor hasNextPage }
		}
	}`
	list := func(t *testing.T, vars map[string]any) connection[listedPerson] {
		t.Helper()
		var data struct{ Persons connection[listedPerson] }
		app.post(t, token, query, vars).decode(t, &data)
		return data.Persons
	}

	t.Run("all persons in one page", func(t *testing.T) {
		var data struct{ Persons connection[listedPerson] }
		app.post(t, token, loadQuery(t, "all_persons"), nil).decode(t, &data)
		if n := len(data.Persons.Nodes); n != 500 {
			t.Errorf("%d persons, want 500", n)
		}
		if data.Persons.PageInfo.HasNextPage || data.Persons.PageInfo.EndCursor != nil {
			t.Errorf("pageInfo = %+v on the last page", data.Persons.PageInfo)
		}
	})

	// The bench's read-slim: a picker selects each person's id and names,
	// and gets exactly those, for the persons of the full list.
	t.Run("slim persons", func(t *testing.T) {
		var full struct{ Persons connection[listedPerson] }
		fullResp := app.post(t, token, loadQuery(t, "all_persons"), nil)
		fullResp.decode(t, &full)
		var slim struct {
			Persons struct{ Nodes []map[string]any }
		}
		slimResp := app.post(t, token, loadQuery(t, "slim_persons"), nil)
		slimResp.decode(t, &slim)
		if len(slim.Persons.Nodes) != len(full.Persons.Nodes) || len(slim.Persons.Nodes) != 500 {
			t.Fatalf("%d slim persons, %d full; want 500 of each", len(slim.Persons.Nodes), len(full.Persons.Nodes))
		}
		for i, n := range slim.Persons.Nodes {
			f := full.Persons.Nodes[i]
			want := map[string]any{"id": f.ID, "firstName": f.FirstName, "lastName": f.LastName}
			if !maps.Equal(n, want) {
				t.Fatalf("slim person %d = %v, want %v", i, n, want)
			}
		}
		if s, f := len(slimResp.Data), len(fullResp.Data); s*3 > f {
			t.Errorf("the slim answer is %d bytes, the full one %d: want less than a third", s, f)
		}
	})

	t.Run("default page size", func(t *testing.T) {
		if n := len(list(t, nil).Nodes); n != 50 {
			t.Errorf("%d persons, want 50", n)
		}
	})

	t.Run("pages follow each other", func(t *testing.T) {
		seen := map[string]bool{}
		var after any
		pages := 0
		for {
			page := list(t, map[string]any{"first": 120, "after": after})
			pages++
			for _, p := range page.Nodes {
				if seen[p.ID] {
					t.Fatalf("person %s on two pages", p.ID)
				}
				seen[p.ID] = true
			}
			if !page.PageInfo.HasNextPage {
				break
			}
			after = *page.PageInfo.EndCursor
		}
		if pages != 5 || len(seen) != 500 {
			t.Errorf("%d pages, %d persons; want 5 pages, 500 persons", pages, len(seen))
		}
	})

	t.Run("search", func(t *testing.T) {
		page := list(t, map[string]any{"search": "lOVELACE"})
		if len(page.Nodes) == 0 {
			t.Fatal("no person found for lOVELACE")
		}
		for _, p := range page.Nodes {
			if !strings.Contains(strings.ToLower(p.FirstName+" "+p.LastName+" "+p.Email), "lovelace") {
				t.Errorf("%+v does not match", p)
			}
		}
	})

	t.Run("bad page size and cursor", func(t *testing.T) {
		for _, vars := range []map[string]any{{"first": 0}, {"first": 1001}, {"first": -1}} {
			e := app.post(t, token, query, vars).wantError(t, codeBadUserInput)
			if e.Extensions.Fields["first"] != "must be a whole number from 1 to 1000" {
				t.Errorf("%v: fields = %v, want first in the words every app uses", vars, e.Extensions.Fields)
			}
		}
		e := app.post(t, token, query, map[string]any{"after": "not-a-cursor"}).wantError(t, codeBadUserInput)
		if e.Extensions.Fields["after"] == "" {
			t.Errorf("fields = %v, want after", e.Extensions.Fields)
		}
	})
}

type listedVacancy struct {
	ID             string  `json:"id"`
	Title          string  `json:"title"`
	Status         string  `json:"status"`
	EmploymentType string  `json:"employmentType"`
	SalaryMinCents int64   `json:"salaryMinCents"`
	SalaryMaxCents int64   `json:"salaryMaxCents"`
	OpensOn        string  `json:"opensOn"`
	ClosesOn       *string `json:"closesOn"`
	FilledBy       *string `json:"filledBy"`
	Version        int     `json:"version"`
	CreatedAt      string  `json:"createdAt"`
	FilledByPerson *struct {
		ID string `json:"id"`
	} `json:"filledByPerson"`
}

func TestVacancies(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")

	t.Run("open vacancies", func(t *testing.T) {
		var data struct{ Vacancies connection[listedVacancy] }
		app.post(t, token, loadQuery(t, "open_vacancies"), nil).decode(t, &data)
		if len(data.Vacancies.Nodes) == 0 {
			t.Fatal("no open vacancies")
		}
		for _, v := range data.Vacancies.Nodes {
			if v.Status != "OPEN" || v.Title == "" || v.SalaryMaxCents < v.SalaryMinCents || v.CreatedAt == "" {
				t.Errorf("vacancy %+v", v)
			}
		}
	})

	t.Run("every status, with who filled them", func(t *testing.T) {
		var data struct{ Vacancies connection[listedVacancy] }
		app.post(t, token, `{ vacancies(first: 1000) { nodes { id status filledBy filledByPerson { id } } pageInfo { hasNextPage } } }`, nil).decode(t, &data)
		statuses := map[string]int{}
		filled := 0
		for _, v := range data.Vacancies.Nodes {
			statuses[v.Status]++
			switch {
			case v.FilledBy == nil && v.FilledByPerson != nil,
				v.FilledBy != nil && (v.FilledByPerson == nil || v.FilledByPerson.ID != *v.FilledBy):
				t.Errorf("vacancy %s: filledBy %v, filledByPerson %+v", v.ID, v.FilledBy, v.FilledByPerson)
			case v.FilledBy != nil:
				filled++
			}
		}
		if len(data.Vacancies.Nodes) != 120 || statuses["OPEN"] == 0 || filled == 0 {
			t.Errorf("%d vacancies, statuses %v, %d filled", len(data.Vacancies.Nodes), statuses, filled)
		}
	})

	t.Run("one vacancy", func(t *testing.T) {
		var data struct{ Vacancy listedVacancy }
		app.post(t, token, `{ vacancy(id: "3") { id title status opensOn version } }`, nil).decode(t, &data)
		if data.Vacancy.ID != "3" || data.Vacancy.Title == "" || data.Vacancy.Version < 1 {
			t.Errorf("vacancy = %+v", data.Vacancy)
		}
	})

	t.Run("unknown ids", func(t *testing.T) {
		for _, q := range []string{`{ vacancy(id: 999999) { id } }`, `{ person(id: "999999") { id } }`} {
			resp := app.post(t, token, q, nil)
			e := resp.wantError(t, codeNotFound)
			if resp.Status != 200 || len(e.Path) != 1 || !strings.Contains(string(resp.Data), "null") {
				t.Errorf("%s: HTTP %d data %s error %+v", q, resp.Status, resp.Data, e)
			}
		}
	})
}

// The back reference from an appointment to its person, and the ID and Date
// scalars as input and output.
func TestAppointmentPerson(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")
	var data struct {
		Person struct {
			ID           string `json:"id"`
			Appointments []struct {
				StartsOn string `json:"startsOn"`
				Person   struct {
					ID string `json:"id"`
				} `json:"person"`
			} `json:"appointments"`
		}
	}
	app.post(t, token, `{ person(id: 1) { id appointments { startsOn person { id } } } }`, nil).decode(t, &data)
	for _, a := range data.Person.Appointments {
		if a.Person.ID != "1" || len(a.StartsOn) != 10 {
			t.Errorf("appointment %+v", a)
		}
	}
}
