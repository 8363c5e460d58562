package main

import (
	"fmt"
	"sync"
	"testing"
)

// newVacancy is a valid VacancyInput, as the bench's write scenario sends it.
func newVacancy() map[string]any {
	return map[string]any{
		"title":          "Research software engineer",
		"department":     "Computing",
		"location":       "Berlin",
		"employmentType": "FULL_TIME",
		"salaryMinCents": 5_000_000,
		"salaryMaxCents": 12_000_000_000, // beyond 32 bits: Int64
		"status":         "OPEN",
		"opensOn":        "2026-01-01",
		"closesOn":       "2026-03-31",
		"description":    "Build the benchmark.\nWith tests.",
	}
}

type vacancy struct {
	ID             string  `json:"id"`
	Title          string  `json:"title"`
	Department     string  `json:"department"`
	EmploymentType string  `json:"employmentType"`
	SalaryMaxCents int64   `json:"salaryMaxCents"`
	Status         string  `json:"status"`
	OpensOn        string  `json:"opensOn"`
	ClosesOn       *string `json:"closesOn"`
	Description    string  `json:"description"`
	FilledBy       *string `json:"filledBy"`
	Version        int     `json:"version"`
	CreatedAt      string  `json:"createdAt"`
	UpdatedAt      string  `json:"updatedAt"`
}

// The bench's write cycle: create, update, delete a vacancy, with the
// documents in testdata.
func TestVacancyWriteCycle(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")

	var created struct{ CreateVacancy vacancy }
	app.post(t, token, loadQuery(t, "create_vacancy"), map[string]any{"input": newVacancy()}).decode(t, &created)
	v := created.CreateVacancy
	if v.ID == "" || v.Title != "Research software engineer" || v.Status != "OPEN" || v.EmploymentType != "FULL_TIME" ||
		v.SalaryMaxCents != 12_000_000_000 || v.ClosesOn == nil || *v.ClosesOn != "2026-03-31" || v.Version != 1 {
		t.Fatalf("created %+v", v)
	}

	var updated struct{ UpdateVacancy vacancy }
	app.post(t, token, loadQuery(t, "update_vacancy"), map[string]any{
		"id": v.ID, "version": v.Version,
		"input": map[string]any{"title": "Senior research software engineer", "status": "CLOSED", "closesOn": nil, "filledBy": "1"},
	}).decode(t, &updated)
	u := updated.UpdateVacancy
	if u.Title != "Senior research software engineer" || u.Status != "CLOSED" || u.ClosesOn != nil ||
		u.FilledBy == nil || *u.FilledBy != "1" || u.Department != v.Department || u.Version != v.Version+1 {
		t.Fatalf("updated %+v", u)
	}

	// null clears filledBy; a field left out stays.
	app.post(t, token, loadQuery(t, "update_vacancy"), map[string]any{
		"id": v.ID, "version": u.Version, "input": map[string]any{"filledBy": nil},
	}).decode(t, &updated)
	if u2 := updated.UpdateVacancy; u2.FilledBy != nil || u2.Title != u.Title || u2.Version != u.Version+1 {
		t.Fatalf("after clearing filledBy: %+v", u2)
	}

	var deleted struct{ DeleteVacancy bool }
	app.post(t, token, loadQuery(t, "delete_vacancy"), map[string]any{"id": v.ID}).decode(t, &deleted)
	if !deleted.DeleteVacancy {
		t.Fatal("deleteVacancy returned false")
	}
	app.post(t, token, `query ($id: ID!) { vacancy(id: $id) { id } }`, map[string]any{"id": v.ID}).wantError(t, codeNotFound)
	app.post(t, token, loadQuery(t, "delete_vacancy"), map[string]any{"id": v.ID}).wantError(t, codeNotFound)
}

func TestPersonWriteCycle(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")
	const fields = `id employeeNo firstName lastName email phone department status hiredOn version appointments { id }`
	type person struct {
		ID           string `json:"id"`
		EmployeeNo   int    `json:"employeeNo"`
		FirstName    string `json:"firstName"`
		Email        string `json:"email"`
		Phone        string `json:"phone"`
		Status       string `json:"status"`
		HiredOn      string `json:"hiredOn"`
		Version      int    `json:"version"`
		Appointments []any  `json:"appointments"`
	}

	var created struct{ CreatePerson person }
	app.post(t, token, `mutation ($input: PersonInput!) { createPerson(input: $input) { `+fields+` } }`, map[string]any{
		"input": map[string]any{"employeeNo": 99001, "firstName": "Grace", "lastName": "Hopper",
			"email": "grace.hopper@example.org", "department": "Computing", "hiredOn": "2024-05-01"},
	}).decode(t, &created)
	p := created.CreatePerson
	if p.ID == "" || p.Status != "ACTIVE" || p.Phone != "" || p.HiredOn != "2024-05-01" || p.Version != 1 || p.Appointments == nil {
		t.Fatalf("created %+v", p)
	}

	var updated struct{ UpdatePerson person }
	app.post(t, token, `mutation ($id: ID!, $version: Int!, $input: PersonPatch!) { updatePerson(id: $id, version: $version, input: $input) { `+fields+` } }`,
		map[string]any{"id": p.ID, "version": 1, "input": map[string]any{"status": "ON_LEAVE", "phone": "+49 30 1234"}},
	).decode(t, &updated)
	if u := updated.UpdatePerson; u.Status != "ON_LEAVE" || u.Phone != "+49 30 1234" || u.FirstName != "Grace" || u.Version != 2 {
		t.Fatalf("updated %+v", u)
	}

	t.Run("stale version is a conflict and changes nothing", func(t *testing.T) {
		app.post(t, token, `mutation ($id: ID!) { updatePerson(id: $id, version: 1, input: {firstName: "Stale"}) { id } }`,
			map[string]any{"id": p.ID}).wantError(t, codeConflict)
		var got struct{ Person person }
		app.post(t, token, `query ($id: ID!) { person(id: $id) { `+fields+` } }`, map[string]any{"id": p.ID}).decode(t, &got)
		if got.Person.FirstName != "Grace" || got.Person.Version != 2 {
			t.Errorf("after the conflict: %+v", got.Person)
		}
	})

	t.Run("duplicate email is a conflict", func(t *testing.T) {
		app.post(t, token, `mutation { createPerson(input: {employeeNo: 99002, firstName: "A", lastName: "B", email: "grace.hopper@example.org", department: "X", hiredOn: "2024-01-01"}) { id } }`, nil).
			wantError(t, codeConflict)
	})

	var deleted struct{ DeletePerson bool }
	app.post(t, token, `mutation ($id: ID!) { deletePerson(id: $id) }`, map[string]any{"id": p.ID}).decode(t, &deleted)
	if !deleted.DeletePerson {
		t.Fatal("deletePerson returned false")
	}
	app.post(t, token, `query ($id: ID!) { person(id: $id) { id } }`, map[string]any{"id": p.ID}).wantError(t, codeNotFound)
}

// Many editors update the same vacancy from the same version at once: one
// wins, the others get CONFLICT, and the version moves by exactly one.
func TestConcurrentUpdatesOneWins(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")
	const n = 8
	var wg sync.WaitGroup
	results := make([]*gqlResponse, n)
	for i := range n {
		wg.Go(func() {
			results[i] = app.post(t, token, loadQuery(t, "update_vacancy"), map[string]any{
				"id": "7", "version": 1, "input": map[string]any{"title": fmt.Sprintf("Title %d", i)},
			})
		})
	}
	wg.Wait()

	wins, winner := 0, ""
	for i, r := range results {
		switch {
		case len(r.Errors) == 0:
			wins++
			winner = fmt.Sprintf("Title %d", i)
		case r.Errors[0].Extensions.Code != codeConflict:
			t.Errorf("update %d: %+v", i, r.Errors)
		}
	}
	if wins != 1 {
		t.Fatalf("%d updates won, want 1", wins)
	}
	viewer := app.login(t, "viewer")
	var got struct{ Vacancy vacancy }
	app.post(t, viewer, `{ vacancy(id: 7) { title version } }`, nil).decode(t, &got)
	if got.Vacancy.Title != winner || got.Vacancy.Version != 2 {
		t.Errorf("stored %+v, want the winner %q at version 2", got.Vacancy, winner)
	}
}
