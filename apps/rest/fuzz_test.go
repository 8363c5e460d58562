package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"crudbench/db"
)

// FuzzVacancyWrites sends arbitrary bodies to the two JSON writes of a
// vacancy, create and update: no body may cause a 5xx, and a rejected body
// must leave the data exactly as it was. The seed corpus runs in every
// go test; go test -fuzz=FuzzVacancyWrites explores further.
func FuzzVacancyWrites(f *testing.F) {
	for _, seed := range []string{
		`{"title":"T","department":"D","location":"L","employmentType":"full_time","salaryMinCents":1,"salaryMaxCents":2,"opensOn":"2025-01-01"}`,
		`{"title":"T","department":"D","location":"L","employmentType":"contract","salaryMinCents":0,"salaryMaxCents":0,"status":"open","opensOn":"2025-01-01","closesOn":null,"description":"","filledBy":null}`,
		`{"title":"🧪","department":"Ω","location":"東京","employmentType":"part_time","salaryMinCents":100,"salaryMaxCents":99,"opensOn":"2025-01-01","closesOn":"2024-12-31","filledBy":1}`,
		`{"version":1,"title":"Changed"}`,
		`{"version":1,"closesOn":null,"filledBy":null}`,
		`{"closesOn":"2099-12-31","filledBy":2}`,
		`{"title":null}`,
		`{"salaryMinCents":-1}`,
		`{"salaryMaxCents":1e400}`,
		`{"salaryMaxCents":9223372036854775807}`,
		`{"version":2147483648}`,
		`{"opensOn":"2025-02-30"}`,
		`{"opensOn":"0000-01-01"}`,
		`{"status":"OPEN"}`,
		`{"title":"\u0000"}`,
		`{"title":"\ud800"}`,
		`{"title":"'; DROP TABLE vacancy; --"}`,
		`{"Title":"x"}`,
		`{"title":"a","title":"b"}`,
		`{"description":{"a":[[[[[[[[[[1]]]]]]]]]]}}`,
		`{"x":1}`,
		`{}`,
		`{`,
		`[]`,
		`null`,
		`"str"`,
		`{"title":"x"} {"title":"y"}`,
		"",
		"\xff",
	} {
		f.Add(seed)
	}

	a := newApp(f)
	target := decodeBody[db.Vacancy](f, a.do(f, "POST", "/api/vacancies", a.editor, vacancyBody()).want(f, http.StatusCreated))
	path := fmt.Sprintf("/api/vacancies/%d", target.ID)
	version := target.Version

	f.Fuzz(func(t *testing.T, body string) {
		list := a.do(t, "GET", "/api/vacancies?limit=1000", a.viewer, nil).want(t, http.StatusOK).body
		res := a.do(t, "POST", "/api/vacancies", a.editor, body)
		switch {
		case res.status >= 500:
			t.Fatalf("POST %q: %d %s", body, res.status, res.body)
		case res.status == http.StatusCreated:
			created := decodeBody[db.Vacancy](t, res)
			stored := a.do(t, "GET", fmt.Sprintf("/api/vacancies/%d", created.ID), a.viewer, nil).want(t, http.StatusOK)
			if !bytes.Equal(stored.body, res.body) {
				t.Fatalf("POST %q answered\n%s\nbut stored\n%s", body, res.body, stored.body)
			}
			a.do(t, "DELETE", fmt.Sprintf("/api/vacancies/%d", created.ID), a.editor, nil).want(t, http.StatusNoContent)
		default:
			if after := a.do(t, "GET", "/api/vacancies?limit=1000", a.viewer, nil).want(t, http.StatusOK).body; !bytes.Equal(after, list) {
				t.Fatalf("POST %q was refused (%d) but changed the vacancies", body, res.status)
			}
		}

		before := a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK).body
		res = a.do(t, "PATCH", path, a.editor, body, "If-Match", fmt.Sprintf(`"%d"`, version))
		switch {
		case res.status >= 500:
			t.Fatalf("PATCH %q: %d %s", body, res.status, res.body)
		case res.status == http.StatusOK:
			updated := decodeBody[db.Vacancy](t, res)
			version = updated.Version
			stored := a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK)
			if !bytes.Equal(stored.body, res.body) {
				t.Fatalf("PATCH %q answered\n%s\nbut stored\n%s", body, res.body, stored.body)
			}
		default:
			after := a.do(t, "GET", path, a.viewer, nil).want(t, http.StatusOK).body
			if !bytes.Equal(after, before) {
				t.Fatalf("PATCH %q was refused (%d) but changed the vacancy:\n%s\n%s", body, res.status, before, after)
			}
			if res.status == http.StatusConflict && !strings.Contains(string(res.body), `"email"`) && !strings.Contains(string(res.body), `"version"`) {
				t.Fatalf("PATCH %q: a conflict that names no field: %s", body, res.body)
			}
		}
	})
}
