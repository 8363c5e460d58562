package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestPersonDetail(t *testing.T) {
	t.Parallel()
	var statements atomic.Int64
	store := dbtest.Store(t, dbtest.Seeded(t), db.Options{OnQuery: func(string) { statements.Add(1) }})
	a := newAppOn(t, store)

	statements.Store(0)
	res := a.do(t, "GET", fmt.Sprintf("/api/persons/%d", seed.ShowcaseID), a.viewer, nil).want(t, http.StatusOK)
	if n := statements.Load(); n > 4 {
		t.Errorf("the showcase detail took %d SQL statements, want at most 4", n)
	}

	p := decodeBody[db.PersonDetail](t, res)
	if p.FirstName != seed.ShowcaseFirstName || p.LastName != seed.ShowcaseLastName || p.EmployeeNo != seed.ShowcaseEmployeeNo {
		t.Errorf("got %s %s (%d), want the showcase person", p.FirstName, p.LastName, p.EmployeeNo)
	}
	if got := res.header.Get("ETag"); got != fmt.Sprintf(`"%d"`, p.Version) {
		t.Errorf("ETag %s, want the version %d", got, p.Version)
	}
	if len(p.Appointments) != seed.ShowcaseAppointments {
		t.Fatalf("%d appointments, want %d", len(p.Appointments), seed.ShowcaseAppointments)
	}
	for _, ap := range p.Appointments {
		if len(ap.Stipends) != seed.ShowcaseStipends || len(ap.Fundings) != seed.ShowcaseFundings {
			t.Errorf("appointment %d: %d stipends and %d fundings, want %d and %d",
				ap.ID, len(ap.Stipends), len(ap.Fundings), seed.ShowcaseStipends, seed.ShowcaseFundings)
		}
		for _, s := range ap.Stipends {
			if s.Payer.Name == "" || s.Payer.Code == "" {
				t.Errorf("stipend %d has no payer name or code: %+v", s.ID, s.Payer)
			}
		}
		for _, f := range ap.Fundings {
			if f.Payer.Name == "" {
				t.Errorf("a funding of appointment %d has no payer name: %+v", ap.ID, f.Payer)
			}
		}
	}

	// A person without appointments has an empty list, not null.
	created := decodeBody[db.Person](t, a.do(t, "POST", "/api/persons", a.editor, personBody(1)).want(t, http.StatusCreated))
	res = a.do(t, "GET", fmt.Sprintf("/api/persons/%d", created.ID), a.viewer, nil).want(t, http.StatusOK)
	if !strings.Contains(string(res.body), `"appointments":[]`) {
		t.Errorf("a person without appointments: %s, want \"appointments\":[]", res.body)
	}
}

func TestPersonList(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	t.Run("every person", func(t *testing.T) {
		got := decodeBody[page[db.Person]](t, a.do(t, "GET", "/api/persons?limit=1000", a.viewer, nil).want(t, http.StatusOK))
		if len(got.Items) != dbtest.Persons || got.NextCursor != nil {
			t.Errorf("%d persons, next cursor %v; want %d and null", len(got.Items), got.NextCursor, dbtest.Persons)
		}
	})
	t.Run("default page size", func(t *testing.T) {
		got := decodeBody[page[db.Person]](t, a.do(t, "GET", "/api/persons", a.viewer, nil).want(t, http.StatusOK))
		if len(got.Items) != db.DefaultLimit || got.NextCursor == nil {
			t.Errorf("%d persons, next cursor %v; want %d and a cursor", len(got.Items), got.NextCursor, db.DefaultLimit)
		}
	})
	t.Run("pages follow each other", func(t *testing.T) {
		seen := map[int64]bool{}
		path := "/api/persons?limit=200"
		for pages := 0; ; pages++ {
			got := decodeBody[page[db.Person]](t, a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK))
			for _, p := range got.Items {
				if seen[p.ID] {
					t.Fatalf("person %d on two pages", p.ID)
				}
				seen[p.ID] = true
			}
			if got.NextCursor == nil {
				break
			}
			if pages > 5 {
				t.Fatal("too many pages")
			}
			path = "/api/persons?limit=200&after=" + url.QueryEscape(*got.NextCursor)
		}
		if len(seen) != dbtest.Persons {
			t.Errorf("%d persons over all pages, want %d", len(seen), dbtest.Persons)
		}
	})
	t.Run("search", func(t *testing.T) {
		got := decodeBody[page[db.Person]](t, a.do(t, "GET", "/api/persons?q=lovelace", a.viewer, nil).want(t, http.StatusOK))
		found := false
		for _, p := range got.Items {
			found = found || p.ID == seed.ShowcaseID
			if !strings.Contains(strings.ToLower(p.FirstName+p.LastName+p.Email), "lovelace") {
				t.Errorf("%s %s <%s> does not match lovelace", p.FirstName, p.LastName, p.Email)
			}
		}
		if !found {
			t.Error("searching lovelace did not find the showcase person")
		}
	})
	t.Run("search with SQL and wildcards", func(t *testing.T) {
		for _, q := range []string{"' OR 1=1 --", "%", "_", `\`, "'; DROP TABLE person; --"} {
			got := decodeBody[page[db.Person]](t, a.do(t, "GET", "/api/persons?q="+url.QueryEscape(q), a.viewer, nil).want(t, http.StatusOK))
			if len(got.Items) != 0 {
				t.Errorf("q=%q found %d persons, want none", q, len(got.Items))
			}
		}
	})

	bad := []struct {
		name, query, field string
	}{
		{"limit zero", "limit=0", "limit"},
		{"limit too large", "limit=1001", "limit"},
		{"limit negative", "limit=-5", "limit"},
		{"limit not a number", "limit=ten", "limit"},
		{"limit huge", "limit=99999999999999999999999", "limit"},
		{"forged cursor", "after=bm90LWEtY3Vyc29y", "after"},
		{"cursor of another list", "after=" + vacancyCursor(t, a), "after"},
		{"search too long", "q=" + strings.Repeat("x", 101), "q"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			p := a.do(t, "GET", "/api/persons?"+c.query, a.viewer, nil).wantProblem(t, http.StatusBadRequest, c.field)
			if c.field == "limit" && p.Fields["limit"] != "must be a whole number from 1 to 1000" {
				t.Errorf("limit: %q, want the words every app uses", p.Fields["limit"])
			}
		})
	}
}

// vacancyCursor returns a real cursor of the vacancy list.
func vacancyCursor(t *testing.T, a *testApp) string {
	t.Helper()
	got := decodeBody[page[db.Vacancy]](t, a.do(t, "GET", "/api/vacancies?limit=1", a.viewer, nil).want(t, http.StatusOK))
	if got.NextCursor == nil {
		t.Fatal("no next cursor on a one-item page of vacancies")
	}
	return url.QueryEscape(*got.NextCursor)
}

func TestPersonLifecycle(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	res := a.do(t, "POST", "/api/persons", a.editor, personBody(1)).want(t, http.StatusCreated)
	p := decodeBody[db.Person](t, res)
	if want := fmt.Sprintf("/api/persons/%d", p.ID); res.header.Get("Location") != want {
		t.Errorf("Location %q, want %q", res.header.Get("Location"), want)
	}
	if p.FirstName != "Grace" || p.HiredOn.String() != "2024-09-01" || p.Status != db.PersonActive || p.Version != 1 {
		t.Errorf("created %+v", p)
	}
	path := fmt.Sprintf("/api/persons/%d", p.ID)

	t.Run("status defaults to active", func(t *testing.T) {
		body := personBody(2)
		delete(body, "status")
		got := decodeBody[db.Person](t, a.do(t, "POST", "/api/persons", a.editor, body).want(t, http.StatusCreated))
		if got.Status != db.PersonActive {
			t.Errorf("status %q, want active", got.Status)
		}
	})
	t.Run("invalid values are 422 with field messages", func(t *testing.T) {
		body := personBody(3)
		body["firstName"] = ""
		body["email"] = "not an email"
		body["employeeNo"] = -1
		body["status"] = "retired"
		a.do(t, "POST", "/api/persons", a.editor, body).wantProblem(t, http.StatusUnprocessableEntity, "firstName", "email", "employeeNo", "status")
	})
	t.Run("a used email is 409", func(t *testing.T) {
		body := personBody(4)
		body["email"] = p.Email
		a.do(t, "POST", "/api/persons", a.editor, body).wantProblem(t, http.StatusConflict, "email")
	})
	t.Run("a used employee number is 409", func(t *testing.T) {
		body := personBody(5)
		body["employeeNo"] = seed.ShowcaseEmployeeNo
		a.do(t, "POST", "/api/persons", a.editor, body).wantProblem(t, http.StatusConflict, "employeeNo")
	})

	res = a.do(t, "PATCH", path, a.editor, map[string]any{"version": 1, "lastName": "Murray Hopper", "status": "on_leave"}).want(t, http.StatusOK)
	p = decodeBody[db.Person](t, res)
	if p.LastName != "Murray Hopper" || p.Status != db.PersonOnLeave || p.FirstName != "Grace" || p.Version != 2 {
		t.Errorf("after PATCH: %+v", p)
	}
	if res.header.Get("ETag") != `"2"` {
		t.Errorf("ETag %q after PATCH, want \"2\"", res.header.Get("ETag"))
	}

	t.Run("If-Match names the version", func(t *testing.T) {
		got := decodeBody[db.Person](t, a.do(t, "PATCH", path, a.editor, `{"phone":"030 123"}`, "If-Match", `"2"`).want(t, http.StatusOK))
		if got.Phone != "030 123" || got.Version != 3 {
			t.Errorf("after PATCH with If-Match: %+v", got)
		}
	})
	t.Run("a stale version is 409 and changes nothing", func(t *testing.T) {
		before := a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK).body
		a.do(t, "PATCH", path, a.editor, map[string]any{"version": 1, "firstName": "Amazing"}).wantProblem(t, http.StatusConflict, "version")
		a.do(t, "PATCH", path, a.editor, `{"firstName":"Amazing"}`, "If-Match", `"2"`).wantProblem(t, http.StatusConflict, "version")
		if after := a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK).body; string(after) != string(before) {
			t.Errorf("a stale update changed the person:\n%s\n%s", before, after)
		}
	})
	t.Run("no version is 428", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"firstName":"Amazing"}`).wantProblem(t, http.StatusPreconditionRequired, "version")
		a.do(t, "PATCH", path, a.editor, `{"version":null,"firstName":"Amazing"}`).wantProblem(t, http.StatusPreconditionRequired, "version")
	})
	t.Run("version and If-Match must agree", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"version":3,"firstName":"Amazing"}`, "If-Match", `"2"`).wantProblem(t, http.StatusBadRequest, "version")
	})
	t.Run("a malformed If-Match is 400", func(t *testing.T) {
		for _, h := range []string{"3", `W/"3"`, `"three"`, `"3", "4"`, "*"} {
			a.do(t, "PATCH", path, a.editor, `{"firstName":"Amazing"}`, "If-Match", h).wantProblem(t, http.StatusBadRequest)
		}
	})
	t.Run("null for a field that cannot be cleared is 400", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"version":3,"lastName":null}`).wantProblem(t, http.StatusBadRequest, "lastName")
	})
	t.Run("an invalid value is 422", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"version":3,"email":"nope"}`).wantProblem(t, http.StatusUnprocessableEntity, "email")
	})
	t.Run("an unknown person is 404", func(t *testing.T) {
		a.do(t, "PATCH", "/api/persons/999999", a.editor, `{"version":1,"firstName":"X"}`).wantProblem(t, http.StatusNotFound)
	})

	a.do(t, "DELETE", path, a.editor, nil).want(t, http.StatusNoContent)
	a.do(t, "GET", path, a.viewer, nil).wantProblem(t, http.StatusNotFound)
	a.do(t, "DELETE", path, a.editor, nil).wantProblem(t, http.StatusNotFound)
}
