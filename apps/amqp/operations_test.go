package main

import (
	"strconv"
	"testing"

	"crudbench/db"
	"crudbench/db/dbtest"
)

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

func vacancyBody() map[string]any {
	return map[string]any{
		"title": "AMQP test vacancy", "department": "Physics", "location": "Berlin",
		"employmentType": "full_time", "salaryMinCents": 4000000, "salaryMaxCents": 5000000,
		"status": "draft", "opensOn": "2026-01-01", "description": "made by a test",
	}
}

func TestHealthz(t *testing.T) {
	a := newApp(t)
	got := decodeBody[map[string]string](t, a.call(t, "healthz", "", nil).want(t, 200))
	if got["status"] != "ok" {
		t.Errorf("healthz = %v, want status ok", got)
	}
}

func TestLogin(t *testing.T) {
	a := newApp(t)
	res := decodeBody[loginResponse](t, a.call(t, "login", "", `{"username":"editor","password":"editor"}`).want(t, 200))
	claims, err := a.tokens.Verify(res.Token)
	if err != nil || claims.Username != "editor" || !claims.Role.CanWrite() {
		t.Errorf("login token: claims %+v, %v", claims, err)
	}
	if res.ExpiresAt.IsZero() {
		t.Error("login answered no expiresAt")
	}
	// The token works for the operations that need one.
	a.call(t, "person.get", res.Token, nil, "id", "1").want(t, 200)

	for name, body := range map[string]string{
		"wrong password": `{"username":"editor","password":"nope"}`,
		"unknown user":   `{"username":"nobody","password":"editor"}`,
	} {
		t.Run(name, func(t *testing.T) { a.call(t, "login", "", body).wantProblem(t, 401) })
	}
}

func TestPersonGet(t *testing.T) {
	a := newApp(t)
	p := decodeBody[db.PersonDetail](t, a.call(t, "person.get", a.viewer, nil, "id", "1").want(t, 200))
	if p.FirstName != "Ada" || p.LastName != "Lovelace" || len(p.Appointments) != 12 {
		t.Fatalf("person 1 = %s %s with %d appointments, want Ada Lovelace with 12", p.FirstName, p.LastName, len(p.Appointments))
	}
	for _, ap := range p.Appointments {
		if len(ap.Stipends) != 3 || len(ap.Fundings) != 2 {
			t.Errorf("appointment %d has %d stipends and %d fundings, want 3 and 2", ap.ID, len(ap.Stipends), len(ap.Fundings))
		}
	}
	a.call(t, "person.get", a.viewer, nil, "id", "9223372036854775807").wantProblem(t, 404)
}

func TestPersonList(t *testing.T) {
	a := newApp(t)
	all := decodeBody[page[db.Person]](t, a.call(t, "person.list", a.viewer, nil, "limit", "1000").want(t, 200))
	if len(all.Items) != dbtest.Persons || all.NextCursor != nil {
		t.Fatalf("limit 1000: %d persons, next %v; want %d and none", len(all.Items), all.NextCursor, dbtest.Persons)
	}
	var paged []db.Person
	params := []string{"limit", "200"}
	for range 10 {
		got := decodeBody[page[db.Person]](t, a.call(t, "person.list", a.viewer, nil, params...).want(t, 200))
		paged = append(paged, got.Items...)
		if got.NextCursor == nil {
			break
		}
		params = []string{"limit", "200", "after", *got.NextCursor}
	}
	if len(paged) != len(all.Items) || paged[len(paged)-1].ID != all.Items[len(all.Items)-1].ID {
		t.Errorf("%d persons over pages, %d in one", len(paged), len(all.Items))
	}
	found := decodeBody[page[db.Person]](t, a.call(t, "person.list", a.viewer, nil, "q", "Lovelace").want(t, 200))
	if len(found.Items) == 0 || found.Items[0].LastName != "Lovelace" {
		t.Errorf("q=Lovelace found %+v", found.Items)
	}
}

func TestVacancyList(t *testing.T) {
	a := newApp(t)
	got := decodeBody[page[db.Vacancy]](t, a.call(t, "vacancy.list", a.viewer, nil, "status", "open", "limit", "100").want(t, 200))
	if len(got.Items) == 0 {
		t.Fatal("no open vacancies")
	}
	for _, v := range got.Items {
		if v.Status != db.VacancyOpen {
			t.Errorf("vacancy %d is %s, asked for open", v.ID, v.Status)
		}
	}
	a.call(t, "vacancy.list", a.viewer, nil, "status", "OPEN").wantProblem(t, 400, "status")
}

func TestVacancyLifecycle(t *testing.T) {
	a := newApp(t)
	created := decodeBody[db.Vacancy](t, a.call(t, "vacancy.create", a.editor, vacancyBody()).want(t, 201))
	if created.ID == 0 || created.Version != 1 {
		t.Fatalf("created %+v, want an id and version 1", created)
	}
	id := itoa(created.ID)
	got := decodeBody[db.Vacancy](t, a.call(t, "vacancy.get", a.viewer, nil, "id", id).want(t, 200))
	if got.Title != "AMQP test vacancy" {
		t.Errorf("read back %+v", got)
	}
	upd := map[string]any{"version": created.Version, "title": "AMQP test vacancy, renamed", "salaryMaxCents": 6000000, "description": "updated", "closesOn": nil}
	updated := decodeBody[db.Vacancy](t, a.call(t, "vacancy.update", a.editor, upd, "id", id).want(t, 200))
	if updated.Version <= created.Version || updated.Title != "AMQP test vacancy, renamed" || updated.SalaryMaxCents != 6000000 {
		t.Errorf("updated %+v", updated)
	}
	// The version read before the update is stale now.
	a.call(t, "vacancy.update", a.editor, upd, "id", id).wantProblem(t, 409)
	a.call(t, "vacancy.delete", a.editor, nil, "id", id).want(t, 204)
	a.call(t, "vacancy.get", a.viewer, nil, "id", id).wantProblem(t, 404)
	a.call(t, "vacancy.delete", a.editor, nil, "id", id).wantProblem(t, 404)
}

func TestPersonLifecycle(t *testing.T) {
	a := newApp(t)
	body := map[string]any{
		"employeeNo": 990001, "firstName": "Grace", "lastName": "Hopper", "email": "grace.hopper@example.org",
		"phone": "+1 555 0100", "department": "Computing", "status": "active", "hiredOn": "2025-02-03",
	}
	created := decodeBody[db.Person](t, a.call(t, "person.create", a.editor, body).want(t, 201))
	id := itoa(created.ID)
	// The same e-mail again is a duplicate.
	body["employeeNo"] = 990002
	a.call(t, "person.create", a.editor, body).wantProblem(t, 409)

	updated := decodeBody[db.Person](t, a.call(t, "person.update", a.editor, map[string]any{"version": created.Version, "status": "on_leave"}, "id", id).want(t, 200))
	if updated.Status != db.PersonOnLeave || updated.Version <= created.Version {
		t.Errorf("updated %+v", updated)
	}
	detail := decodeBody[db.PersonDetail](t, a.call(t, "person.get", a.viewer, nil, "id", id).want(t, 200))
	if detail.LastName != "Hopper" || len(detail.Appointments) != 0 {
		t.Errorf("read back %+v", detail)
	}
	a.call(t, "person.delete", a.editor, nil, "id", id).want(t, 204)
	a.call(t, "person.get", a.viewer, nil, "id", id).wantProblem(t, 404)
}
