package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// TestHostileInput sends malformed, oversized, mistyped and otherwise
// hostile requests: each gets a clear 4xx problem, and none changes data.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	v := decodeBody[db.Vacancy](t, a.do(t, "POST", "/api/vacancies", a.editor, vacancyBody()).want(t, http.StatusCreated))
	vacancy := fmt.Sprintf("/api/vacancies/%d", v.ID)
	before := a.snapshot(t)

	with := func(field string, value any) string {
		b := vacancyBody()
		b[field] = value
		out, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	cases := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		fields                   []string
	}{
		{"malformed JSON", "POST", "/api/vacancies", `{"title": "x",}`, nil, 400, nil},
		{"truncated JSON", "POST", "/api/vacancies", `{"title": "x"`, nil, 400, nil},
		{"empty body", "POST", "/api/vacancies", ``, nil, 400, nil},
		{"whitespace body", "POST", "/api/vacancies", " \n ", nil, 400, nil},
		{"null body", "POST", "/api/vacancies", `null`, nil, 400, nil},
		{"array body", "POST", "/api/vacancies", `[` + with("title", "x") + `]`, nil, 400, nil},
		{"string body", "POST", "/api/vacancies", `"hello"`, nil, 400, nil},
		{"two objects", "POST", "/api/vacancies", with("title", "x") + with("title", "y"), nil, 400, nil},
		{"trailing garbage", "POST", "/api/vacancies", with("title", "x") + `}`, nil, 400, nil},
		{"invalid UTF-8", "POST", "/api/vacancies", with("title", "x")[:10] + "\xff\xfe" + with("title", "x")[10:], nil, 400, nil},
		{"deeply nested", "POST", "/api/vacancies", `{"description":` + deep + `}`, nil, 400, []string{"description"}},
		{"deeply nested unknown field", "POST", "/api/vacancies", `{"x":` + deep + `}`, nil, 400, []string{"x"}},
		{"unknown field", "POST", "/api/vacancies", with("salary", 5), nil, 400, []string{"salary"}},
		{"key in another case", "POST", "/api/vacancies", strings.Replace(with("title", "x"), `"title"`, `"TITLE"`, 1), nil, 400, []string{"TITLE"}},
		{"id in body", "POST", "/api/vacancies", with("id", 1), nil, 400, []string{"id"}},
		{"version on create", "POST", "/api/vacancies", with("version", 7), nil, 400, []string{"version"}},
		{"string for number", "POST", "/api/vacancies", with("salaryMinCents", "5000"), nil, 400, []string{"salaryMinCents"}},
		{"fraction for integer", "POST", "/api/vacancies", with("salaryMinCents", 1.5), nil, 400, []string{"salaryMinCents"}},
		{"huge number", "POST", "/api/vacancies", strings.Replace(with("salaryMinCents", 0), `"salaryMinCents":0`, `"salaryMinCents":1e400`, 1), nil, 400, []string{"salaryMinCents"}},
		{"int64 overflow", "POST", "/api/vacancies", strings.Replace(with("salaryMinCents", 0), `"salaryMinCents":0`, `"salaryMinCents":9223372036854775808`, 1), nil, 400, []string{"salaryMinCents"}},
		{"number for string", "POST", "/api/vacancies", with("title", 42), nil, 400, []string{"title"}},
		{"object for string", "POST", "/api/vacancies", with("title", map[string]any{"$ne": ""}), nil, 400, []string{"title"}},
		{"bool for enum", "POST", "/api/vacancies", with("status", true), nil, 400, []string{"status"}},
		{"bad date", "POST", "/api/vacancies", with("opensOn", "2025-02-30"), nil, 400, []string{"opensOn"}},
		{"date with time", "POST", "/api/vacancies", with("opensOn", "2025-02-01T00:00:00Z"), nil, 400, []string{"opensOn"}},
		{"number for date", "POST", "/api/vacancies", with("closesOn", 20250101), nil, 400, []string{"closesOn"}},
		{"negative salary", "POST", "/api/vacancies", with("salaryMinCents", -1), nil, 422, []string{"salaryMinCents"}},
		{"absurd salary", "POST", "/api/vacancies", with("salaryMaxCents", int64(1)<<62), nil, 422, []string{"salaryMaxCents"}},
		{"unknown enum", "POST", "/api/vacancies", with("employmentType", "FULL_TIME"), nil, 422, []string{"employmentType"}},
		{"missing fields", "POST", "/api/vacancies", `{}`, nil, 422, []string{"title", "department", "location", "employmentType", "opensOn"}},
		{"huge string", "POST", "/api/vacancies", with("description", strings.Repeat("x", 20_000)), nil, 422, []string{"description"}},
		{"NUL in string", "POST", "/api/vacancies", with("title", "a\x00b"), nil, 422, []string{"title"}},
		{"control character", "POST", "/api/vacancies", with("title", "a\x1bb"), nil, 422, []string{"title"}},
		{"year 0001", "POST", "/api/vacancies", with("opensOn", "0001-01-01"), nil, 422, []string{"opensOn"}},
		{"negative filledBy", "POST", "/api/vacancies", with("filledBy", -3), nil, 422, []string{"filledBy"}},
		{"body over 1 MiB", "POST", "/api/vacancies", with("description", strings.Repeat("x", serve.MaxBodyBytes)), nil, 413, nil},
		{"text/plain", "POST", "/api/vacancies", with("title", "x"), []string{"Content-Type", "text/plain"}, 415, nil},
		{"no content type", "POST", "/api/vacancies", with("title", "x"), []string{"Content-Type", ""}, 415, nil},
		{"form", "POST", "/api/vacancies", "title=x", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, nil},
		{"patch: wrong type", "PATCH", vacancy, `{"version":"1","title":"x"}`, nil, 400, []string{"version"}},
		{"patch: null title", "PATCH", vacancy, `{"version":1,"title":null}`, nil, 400, []string{"title"}},
		{"patch: bad date", "PATCH", vacancy, `{"version":1,"closesOn":"soon"}`, nil, 400, []string{"closesOn"}},
		{"patch: unknown field", "PATCH", vacancy, `{"version":1,"owner":"me"}`, nil, 400, []string{"owner"}},
		{"patch: version overflow", "PATCH", vacancy, `{"version":4294967296}`, nil, 400, []string{"version"}},
		{"patch: empty title", "PATCH", vacancy, `{"version":1,"title":"  "}`, nil, 422, []string{"title"}},
		{"patch: over 1 MiB", "PATCH", vacancy, `{"version":1,"description":"` + strings.Repeat("x", serve.MaxBodyBytes) + `"}`, nil, 413, nil},
		{"patch: not JSON", "PATCH", vacancy, `version=1`, []string{"Content-Type", "text/plain"}, 415, nil},
		{"id not a number", "GET", "/api/vacancies/abc", "", nil, 400, []string{"id"}},
		{"id zero", "GET", "/api/vacancies/0", "", nil, 400, []string{"id"}},
		{"id negative", "PATCH", "/api/vacancies/-1", `{"version":1}`, nil, 400, []string{"id"}},
		{"id too large", "DELETE", "/api/vacancies/99999999999999999999", "", nil, 400, []string{"id"}},
		{"id with SQL", "GET", "/api/persons/1%20OR%201=1", "", nil, 400, []string{"id"}},
		{"unknown id", "GET", "/api/vacancies/999999", "", nil, 404, nil},
		{"unknown path", "GET", "/api/payers", "", nil, 404, nil},
		{"trailing slash", "GET", "/api/vacancies/", "", nil, 404, nil},
		{"PUT", "PUT", vacancy, with("title", "x"), nil, 405, nil},
		{"POST on an item", "POST", "/api/persons/1", `{}`, nil, 405, nil},
		{"DELETE a list", "DELETE", "/api/vacancies", "", nil, 405, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body any
			if c.method != "GET" && c.method != "DELETE" {
				body = c.body
			}
			res := a.do(t, c.method, c.path, a.editor, body, c.headers...)
			p := res.wantProblem(t, c.status, c.fields...)
			if p.Status != c.status || p.Title != http.StatusText(c.status) || p.Type != "about:blank" || p.Detail == "" {
				t.Errorf("problem %+v", p)
			}
		})
	}
	t.Run("405 lists the allowed methods", func(t *testing.T) {
		res := a.do(t, "PUT", vacancy, a.editor, with("title", "x"))
		res.wantProblem(t, http.StatusMethodNotAllowed)
		if got := res.header.Get("Allow"); got != "GET, HEAD, PATCH, DELETE" {
			t.Errorf("Allow %q, want GET, HEAD, PATCH, DELETE", got)
		}
	})
	if after := a.snapshot(t); after != before {
		t.Error("rejected requests changed the data")
	}

	// Strings that look like SQL, markup or exotic text are data, stored and
	// answered exactly as sent.
	for _, title := range []string{
		"'); DROP TABLE vacancy; --",
		`Robert"); DELETE FROM person WHERE ("1"="1`,
		"<script>alert(1)</script>",
		"Ingénieur·e de recherche — 研究员 🧪",
		"\u202eRTL override",
	} {
		t.Run("stored as sent: "+title, func(t *testing.T) {
			created := decodeBody[db.Vacancy](t, a.do(t, "POST", "/api/vacancies", a.editor, with("title", title)).want(t, http.StatusCreated))
			got := decodeBody[db.Vacancy](t, a.do(t, "GET", fmt.Sprintf("/api/vacancies/%d", created.ID), a.viewer, nil).want(t, http.StatusOK))
			if got.Title != title {
				t.Errorf("title %q came back as %q", title, got.Title)
			}
		})
	}
	persons := decodeBody[page[db.Person]](t, a.do(t, "GET", "/api/persons?limit=1000", a.viewer, nil).want(t, http.StatusOK))
	if len(persons.Items) != 500 {
		t.Errorf("%d persons after the SQL-looking titles, want 500", len(persons.Items))
	}
}

// TestRespondError checks the translator from store error codes to HTTP,
// including the codes the other tests cannot provoke through a healthy
// database.
func TestRespondError(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, method string
		err          error
		status       int
		detail       string
	}{
		{"invalid query", "GET", &db.Error{Code: db.EINVALID, Message: "invalid input", Fields: map[string]string{"limit": "bad"}}, 400, "invalid input"},
		{"invalid body", "POST", &db.Error{Code: db.EINVALID, Message: "invalid input"}, 422, "invalid input"},
		{"invalid patch", "PATCH", &db.Error{Code: db.EINVALID, Message: "invalid input"}, 422, "invalid input"},
		{"not found", "GET", db.Errorf(db.ENOTFOUND, "vacancy 9 not found"), 404, "vacancy 9 not found"},
		{"conflict", "PATCH", db.Errorf(db.ECONFLICT, "stale"), 409, "stale"},
		{"unauthorized", "POST", db.Errorf(db.EUNAUTHORIZED, "invalid username or password"), 401, "invalid username or password"},
		{"unavailable", "GET", &db.Error{Code: db.EUNAVAILABLE, Message: "the database is unavailable", Err: errors.New("dial tcp 10.0.0.5:5432: connection refused")}, 503, "the database is unavailable"},
		{"internal", "GET", &db.Error{Code: db.EINTERNAL, Message: "internal error", Err: errors.New(`relation "secret_table" does not exist`)}, 500, ""},
		{"foreign error", "GET", errors.New("pq: password authentication failed for user postgres"), 500, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&logs, nil))
			w := httptest.NewRecorder()
			respondError(w, httptest.NewRequest(c.method, "/api/x", nil), logger, c.err)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d", w.Code, c.status)
			}
			var p problem
			if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
				t.Fatal(err)
			}
			if p.Detail != c.detail || p.Status != c.status || p.Instance != "/api/x" {
				t.Errorf("problem %+v, want detail %q", p, c.detail)
			}
			for _, secret := range []string{"10.0.0.5", "secret_table", "password authentication"} {
				if strings.Contains(w.Body.String(), secret) {
					t.Errorf("the response leaks %q: %s", secret, w.Body)
				}
			}
			if c.status >= 500 {
				if logs.Len() == 0 {
					t.Error("a server-side error was not logged")
				}
				for _, want := range []string{"connection refused", "secret_table", "password authentication"} {
					if strings.Contains(fmt.Sprint(c.err, db.ErrorOf(c.err).Err), want) && !strings.Contains(logs.String(), want) {
						t.Errorf("the log does not hold the cause %q: %s", want, logs.String())
					}
				}
			}
			if c.status == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if c.status == 503 && w.Header().Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
		})
	}
}

// TestPanic serves a route whose dependency is missing (no store), which
// panics: the client gets a bare 500 problem, the server keeps serving.
func TestPanic(t *testing.T) {
	t.Parallel()
	a := newAppOn(t, nil)
	p := a.do(t, "GET", "/api/persons/1", a.viewer, nil).wantProblem(t, http.StatusInternalServerError)
	if p.Detail != "" || p.Fields != nil {
		t.Errorf("a 500 says more than that: %+v", p)
	}
	a.do(t, "GET", "/healthz", "", nil).want(t, http.StatusOK)
}
