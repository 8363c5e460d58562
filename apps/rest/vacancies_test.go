package main

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"crudbench/db"
	"crudbench/db/seed"
)

func TestVacancyList(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	t.Run("open", func(t *testing.T) {
		got := decodeBody[page[db.Vacancy]](t, a.do(t, "GET", "/api/vacancies?status=open", a.viewer, nil).want(t, http.StatusOK))
		if len(got.Items) == 0 {
			t.Fatal("no open vacancies")
		}
		for _, v := range got.Items {
			if v.Status != db.VacancyOpen {
				t.Errorf("vacancy %d is %s, asked for open", v.ID, v.Status)
			}
		}
	})
	t.Run("pages follow each other", func(t *testing.T) {
		all := decodeBody[page[db.Vacancy]](t, a.do(t, "GET", "/api/vacancies?limit=1000", a.viewer, nil).want(t, http.StatusOK))
		var paged []db.Vacancy
		path := "/api/vacancies?limit=50"
		for range 10 {
			got := decodeBody[page[db.Vacancy]](t, a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK))
			paged = append(paged, got.Items...)
			if got.NextCursor == nil {
				break
			}
			path = "/api/vacancies?limit=50&after=" + url.QueryEscape(*got.NextCursor)
		}
		if len(paged) != len(all.Items) || all.NextCursor != nil {
			t.Errorf("%d vacancies over pages, %d in one (next %v)", len(paged), len(all.Items), all.NextCursor)
		}
	})
	for _, c := range []struct{ name, query, field string }{
		{"unknown status", "status=OPEN", "status"},
		{"limit too large", "limit=5000", "limit"},
		{"forged cursor", "after=%27%3B--", "after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a.do(t, "GET", "/api/vacancies?"+c.query, a.viewer, nil).wantProblem(t, http.StatusBadRequest, c.field)
		})
	}
}

func TestVacancyLifecycle(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	res := a.do(t, "POST", "/api/vacancies", a.editor, vacancyBody()).want(t, http.StatusCreated)
	v := decodeBody[db.Vacancy](t, res)
	path := fmt.Sprintf("/api/vacancies/%d", v.ID)
	if res.header.Get("Location") != path || res.header.Get("ETag") != `"1"` {
		t.Errorf("Location %q, ETag %q; want %q and \"1\"", res.header.Get("Location"), res.header.Get("ETag"), path)
	}
	if v.Title != "Research Software Engineer" || v.ClosesOn == nil || v.ClosesOn.String() != "2025-03-31" || v.FilledBy != nil {
		t.Errorf("created %+v", v)
	}

	res = a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK)
	if got := decodeBody[db.Vacancy](t, res); got.ID != v.ID || res.header.Get("ETag") != `"1"` {
		t.Errorf("GET %s: %+v, ETag %s", path, got, res.header.Get("ETag"))
	}

	v = decodeBody[db.Vacancy](t, a.do(t, "PATCH", path, a.editor,
		map[string]any{"version": 1, "status": "filled", "filledBy": seed.ShowcaseID, "salaryMaxCents": 8_000_000}).want(t, http.StatusOK))
	if v.Status != db.VacancyFilled || v.FilledBy == nil || *v.FilledBy != seed.ShowcaseID || v.SalaryMaxCents != 8_000_000 || v.Version != 2 {
		t.Errorf("after PATCH: %+v", v)
	}

	t.Run("null clears closesOn and filledBy", func(t *testing.T) {
		got := decodeBody[db.Vacancy](t, a.do(t, "PATCH", path, a.editor, `{"version":2,"status":"open","closesOn":null,"filledBy":null}`).want(t, http.StatusOK))
		if got.ClosesOn != nil || got.FilledBy != nil || got.Title != v.Title || got.Version != 3 {
			t.Errorf("after clearing: %+v", got)
		}
	})
	t.Run("absent fields stay", func(t *testing.T) {
		got := decodeBody[db.Vacancy](t, a.do(t, "PATCH", path, a.editor, `{"closesOn":"2025-06-30"}`, "If-Match", `"3"`).want(t, http.StatusOK))
		if got.ClosesOn == nil || got.ClosesOn.String() != "2025-06-30" || got.SalaryMaxCents != 8_000_000 || got.Status != db.VacancyOpen {
			t.Errorf("after setting closesOn: %+v", got)
		}
	})
	t.Run("rules across fields are 422", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"version":4,"salaryMinCents":9000000}`).wantProblem(t, http.StatusUnprocessableEntity, "salaryMaxCents")
		a.do(t, "PATCH", path, a.editor, `{"version":4,"closesOn":"2024-01-01"}`).wantProblem(t, http.StatusUnprocessableEntity, "closesOn")
	})
	t.Run("an unknown person in filledBy is 422", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"version":4,"filledBy":999999}`).wantProblem(t, http.StatusUnprocessableEntity, "filledBy")
	})
	t.Run("a stale version is 409", func(t *testing.T) {
		a.do(t, "PATCH", path, a.editor, `{"version":1,"title":"Late"}`).wantProblem(t, http.StatusConflict, "version")
	})
	t.Run("status defaults to draft", func(t *testing.T) {
		body := vacancyBody()
		delete(body, "status")
		delete(body, "closesOn")
		got := decodeBody[db.Vacancy](t, a.do(t, "POST", "/api/vacancies", a.editor, body).want(t, http.StatusCreated))
		if got.Status != db.VacancyDraft || got.ClosesOn != nil {
			t.Errorf("created %+v", got)
		}
	})

	a.do(t, "DELETE", path, a.editor, nil).want(t, http.StatusNoContent)
	a.do(t, "GET", path, a.viewer, nil).wantProblem(t, http.StatusNotFound)
	a.do(t, "PATCH", path, a.editor, `{"version":4}`).wantProblem(t, http.StatusNotFound)
	a.do(t, "DELETE", path, a.editor, nil).wantProblem(t, http.StatusNotFound)
}

// TestConcurrentUpdates sends many updates based on the same version at
// once: exactly one wins, the others are 409, none is lost silently.
func TestConcurrentUpdates(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	v := decodeBody[db.Vacancy](t, a.do(t, "POST", "/api/vacancies", a.editor, vacancyBody()).want(t, http.StatusCreated))
	path := fmt.Sprintf("/api/vacancies/%d", v.ID)

	const writers = 8
	statuses := make([]int, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			body := fmt.Sprintf(`{"version":%d,"title":"Writer %d"}`, v.Version, i)
			statuses[i] = a.do(t, "PATCH", path, a.editor, body).status
		})
	}
	wg.Wait()

	won := 0
	for i, s := range statuses {
		switch s {
		case http.StatusOK:
			won++
		case http.StatusConflict:
		default:
			t.Errorf("writer %d: status %d, want 200 or 409", i, s)
		}
	}
	if won != 1 {
		t.Errorf("%d writers won, want exactly 1 (statuses %v)", won, statuses)
	}
	got := decodeBody[db.Vacancy](t, a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK))
	if got.Version != v.Version+1 {
		t.Errorf("version %d after the race, want %d", got.Version, v.Version+1)
	}
}
