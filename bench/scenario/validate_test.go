package scenario_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"crudbench/bench/dbprobe"
	"crudbench/bench/scenario"
	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

// flaw rewrites an answer of restServer: the request it answered, and
// the answer's status and body.
type flaw func(r *http.Request, status int, body []byte) (int, []byte)

// restServer answers the requests of the rest kind from the store as the
// contract says, except where wrong rewrites an answer: an app written
// from the contract that gets one thing wrong. Requests whose method is
// ignore are answered with success and not carried out.
func restServer(t *testing.T, store *db.Store, wrong flaw, ignore string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	answer := func(w http.ResponseWriter, v any, err error, status int) {
		switch {
		case db.ErrorCode(err) == db.ENOTFOUND:
			http.Error(w, err.Error(), http.StatusNotFound)
		case db.ErrorCode(err) == db.ECONFLICT:
			http.Error(w, err.Error(), http.StatusConflict)
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		case v == nil:
			w.WriteHeader(status)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(v)
		}
	}
	id := func(r *http.Request) int64 {
		n, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		return n
	}
	limit := func(r *http.Request) int {
		n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		return n
	}
	type page struct {
		Items      any     `json:"items"`
		NextCursor *string `json:"nextCursor"`
	}
	mux.HandleFunc("POST /api/login", func(w http.ResponseWriter, r *http.Request) {
		answer(w, map[string]string{"token": "t"}, nil, http.StatusOK)
	})
	mux.HandleFunc("GET /api/persons/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := store.FindPersonDetail(r.Context(), id(r))
		answer(w, p, err, http.StatusOK)
	})
	mux.HandleFunc("GET /api/persons", func(w http.ResponseWriter, r *http.Request) {
		p, err := store.FindPersons(r.Context(), db.PersonFilter{Limit: limit(r)})
		answer(w, page{Items: p.Persons}, err, http.StatusOK)
	})
	mux.HandleFunc("GET /api/vacancies", func(w http.ResponseWriter, r *http.Request) {
		p, err := store.FindVacancies(r.Context(), db.VacancyFilter{Status: db.VacancyStatus(r.URL.Query().Get("status")), Limit: limit(r)})
		answer(w, page{Items: p.Vacancies}, err, http.StatusOK)
	})
	mux.HandleFunc("GET /api/vacancies/{id}", func(w http.ResponseWriter, r *http.Request) {
		v, err := store.FindVacancyByID(r.Context(), id(r))
		answer(w, v, err, http.StatusOK)
	})
	mux.HandleFunc("POST /api/vacancies", func(w http.ResponseWriter, r *http.Request) {
		var in db.VacancyInput
		err := json.NewDecoder(r.Body).Decode(&in)
		var v db.Vacancy
		if err == nil {
			v, err = store.CreateVacancy(r.Context(), in)
		}
		answer(w, v, err, http.StatusCreated)
	})
	mux.HandleFunc("PATCH /api/vacancies/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Version        int32
			Title          *string
			SalaryMaxCents *int64
			Description    *string
		}
		err := json.NewDecoder(r.Body).Decode(&in)
		var v db.Vacancy
		if err == nil {
			v, err = store.UpdateVacancy(r.Context(), id(r), in.Version, db.VacancyPatch{Title: in.Title, SalaryMaxCents: in.SalaryMaxCents, Description: in.Description})
		}
		answer(w, v, err, http.StatusOK)
	})
	mux.HandleFunc("DELETE /api/vacancies/{id}", func(w http.ResponseWriter, r *http.Request) {
		answer(w, nil, store.DeleteVacancy(r.Context(), id(r)), http.StatusNoContent)
	})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		if r.Method == ignore {
			rec.WriteHeader(http.StatusNoContent)
		} else {
			mux.ServeHTTP(rec, r)
		}
		status, body := rec.Code, rec.Body.Bytes()
		if wrong != nil {
			status, body = wrong(r, status, body)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

// rewriteJSON applies change to the JSON answer of requests to method and
// path (a path ending in / matches everything under it).
func rewriteJSON(method, path string, change func(v any) any) flaw {
	return func(r *http.Request, status int, body []byte) (int, []byte) {
		if r.Method != method || (r.URL.Path != path && !(strings.HasSuffix(path, "/") && strings.HasPrefix(r.URL.Path, path))) {
			return status, body
		}
		var v any
		if json.Unmarshal(body, &v) != nil {
			return status, body
		}
		out, _ := json.Marshal(change(v))
		return status, out
	}
}

// items applies change to every item of a list answer.
func items(change func(m map[string]any)) func(v any) any {
	return func(v any) any {
		for _, it := range v.(map[string]any)["items"].([]any) {
			change(it.(map[string]any))
		}
		return v
	}
}

// TestValidateCatchesAWrongRESTServer validates a REST app attached alone
// (compared with the dataset, as the runner does without DATABASE_URL)
// that gets one thing of the contract wrong, and checks that validation
// fails naming the problem and that a write cycle leaves no row behind.
func TestValidateCatchesAWrongRESTServer(t *testing.T) {
	tests := []struct {
		name     string
		scenario string
		wrong    flaw
		want     []string // in the error, in this order
		// withDatabase gives the validator the database's count and
		// search by title, as the runner does with DATABASE_URL.
		withDatabase bool
		// leaves is how many rows the app makes impossible to remove.
		leaves int
		// ignore is a method the server answers without carrying it out.
		ignore string
	}{
		{"as the contract says", scenario.Mixed, nil, nil, false, 0, ""},
		{"ids as strings", scenario.ReadOne, rewriteJSON("GET", "/api/persons/1", func(v any) any {
			v.(map[string]any)["id"] = "1"
			return v
		}), []string{`GET /api/persons/1: field parity: differs from the dataset: read-one.id: got "1", want 1`}, false, 0, ""},
		{"upper-case enums", scenario.ReadMany, rewriteJSON("GET", "/api/persons", items(func(m map[string]any) {
			m["status"] = strings.ToUpper(m["status"].(string))
		})), []string{`GET /api/persons?limit=1000: field parity: differs from the dataset: read-many[0].status: got "ACTIVE", want "active"`}, false, 0, ""},
		{"read-slim, the full list", scenario.ReadSlim, nil, nil, false, 0, ""},
		{"read-slim compared as read-many", scenario.ReadSlim, rewriteJSON("GET", "/api/persons", items(func(m map[string]any) {
			delete(m, "email")
		})), []string{`GET /api/persons?limit=1000: field parity: differs from the dataset: read-slim[0].email: missing`}, false, 0, ""},
		{"upper-case enums in the open list", scenario.ReadSmall, rewriteJSON("GET", "/api/vacancies", items(func(m map[string]any) {
			m["status"] = "OPEN"
		})), []string{`GET /api/vacancies?status=open&limit=100: item 0 has status OPEN, want open`}, false, 0, ""},
		{"a date as a timestamp", scenario.ReadOne, rewriteJSON("GET", "/api/persons/1", func(v any) any {
			m := v.(map[string]any)
			m["hiredOn"] = m["hiredOn"].(string) + "T00:00:00Z"
			return v
		}), []string{`read-one.hiredOn: got "`, `T00:00:00Z", want "`}, false, 0, ""},
		{"a missing row", scenario.ReadMany, rewriteJSON("GET", "/api/persons", func(v any) any {
			m := v.(map[string]any)
			list := m["items"].([]any)
			m["items"] = list[:len(list)-1]
			return v
		}), []string{`GET /api/persons?limit=1000: field parity: differs from the dataset: read-many: 499 items, want 500`}, false, 0, ""},
		{"a create without version", scenario.Write, rewriteJSON("POST", "/api/vacancies", func(v any) any {
			delete(v.(map[string]any), "version")
			return v
		}), []string{`create, POST /api/vacancies: no version in the answer`}, false, 0, ""},
		{"a create without id", scenario.Write, rewriteJSON("POST", "/api/vacancies", func(v any) any {
			delete(v.(map[string]any), "id")
			return v
		}), []string{`create, POST /api/vacancies: no vacancy id in the answer`}, false, 0, ""},
		{"a create without id, with the database", scenario.Write, rewriteJSON("POST", "/api/vacancies", func(v any) any {
			delete(v.(map[string]any), "id")
			return v
		}), []string{`create, POST /api/vacancies: no vacancy id in the answer`}, true, 0, ""},
		{"a delete that does not delete", scenario.Write, nil, []string{`after delete: GET /api/vacancies/`, `still readable after delete`,
			`, created by validation, could not be removed: GET /api/vacancies/`,
			`the write cycle changed the number of vacancies from 120 to 121`}, true, 1, http.MethodDelete},
		{"a create with the wrong status", scenario.Write, func(r *http.Request, status int, body []byte) (int, []byte) {
			if r.Method == http.MethodPost && r.URL.Path == "/api/vacancies" {
				return http.StatusOK, body
			}
			return status, body
		}, []string{`create, POST /api/vacancies: status 200, want 201`}, false, 0, ""},
		{"a failure after create", scenario.Write, func(r *http.Request, status int, body []byte) (int, []byte) {
			if r.Method == http.MethodPatch {
				return http.StatusInternalServerError, []byte(`{"title":"boom"}`)
			}
			return status, body
		}, []string{`update, PATCH /api/vacancies/`, `: status 500, want 200`}, false, 0, ""},
		{"a failure after update", scenario.Mixed, func(r *http.Request, status int, body []byte) (int, []byte) {
			if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/vacancies/") && bytes.Contains(body, []byte("(edited)")) {
				return http.StatusNotFound, nil
			}
			return status, body
		}, []string{`write: after update: GET /api/vacancies/`, `: status 404, want 200`}, false, 0, ""},
	}
	tests = append(tests, []struct {
		name         string
		scenario     string
		wrong        flaw
		want         []string
		withDatabase bool
		leaves       int
		ignore       string
	}{
		// Checks the dataset could not fail before: payer A040 sorts
		// before P010 though its id is higher, and the showcase's last
		// appointment is open-ended.
		{"fundings by payer id", scenario.ReadOne, rewriteJSON("GET", "/api/persons/1", func(v any) any {
			for _, a := range v.(map[string]any)["appointments"].([]any) {
				fs := a.(map[string]any)["fundings"].([]any)
				sort.Slice(fs, func(i, j int) bool {
					return fs[i].(map[string]any)["payer"].(map[string]any)["id"].(float64) < fs[j].(map[string]any)["payer"].(map[string]any)["id"].(float64)
				})
			}
			return v
		}), []string{`GET /api/persons/1: field parity: differs from the dataset: read-one.appointments[8].fundings: order: [0] is payer 10, want payer 40 (the same 2 rows in another order)`}, false, 0, ""},
		{"an empty date for none", scenario.ReadOne, rewriteJSON("GET", "/api/persons/1", func(v any) any {
			for _, a := range v.(map[string]any)["appointments"].([]any) {
				if m := a.(map[string]any); m["endsOn"] == nil {
					m["endsOn"] = ""
				}
			}
			return v
		}), []string{`read-one.appointments[11].endsOn: got "", want null`}, false, 0, ""},
		{"persons in id order", scenario.ReadMany, rewriteJSON("GET", "/api/persons", func(v any) any {
			list := v.(map[string]any)["items"].([]any)
			sort.Slice(list, func(i, j int) bool {
				return list[i].(map[string]any)["id"].(float64) < list[j].(map[string]any)["id"].(float64)
			})
			return v
		}), []string{`GET /api/persons?limit=1000: field parity: differs from the dataset: read-many: order: [0] is id 1, want id `, ` (the same 500 rows in another order)`}, false, 0, ""},
		{"an update that keeps the version", scenario.Write, func(r *http.Request, status int, body []byte) (int, []byte) {
			if r.Method == http.MethodPatch || r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/vacancies/") {
				return rewriteJSON(r.Method, r.URL.Path, func(v any) any {
					v.(map[string]any)["version"] = 1
					return v
				})(r, status, body)
			}
			return status, body
		}, []string{`after update: GET /api/vacancies/`, `: vacancy `, ` is at version 1 after an update sent at version 1, want a higher version`}, false, 0, ""},
	}...)
	ref, err := scenario.ReferenceFromDataset(seed.Generate(dbtest.Persons))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			url := dbtest.Seeded(t)
			store := dbtest.Store(t, url, db.Options{MaxConns: 4})
			app, err := scenario.NewApp("candidate", scenario.KindREST, restServer(t, store, tt.wrong, tt.ignore).URL)
			if err != nil {
				t.Fatal(err)
			}
			c := scenario.NewClient(10*time.Second, nil)
			s, err := app.Login(ctx, c, "editor", "editor")
			if err != nil {
				t.Fatal(err)
			}
			v := &scenario.Validator{Client: c, Ref: ref, Tag: "crudbench test validation"}
			if tt.withDatabase {
				p, err := dbprobe.Open(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { p.Close() })
				v.CountVacancies, v.VacanciesTitled = p.CountVacancies, p.VacanciesTitled
			}
			err = v.Validate(ctx, s, tt.scenario)
			switch {
			case tt.want == nil && err != nil:
				t.Fatalf("validation failed: %v", err)
			case tt.want != nil && err == nil:
				t.Fatal("validation passed, want a failure")
			case err != nil:
				if !containsInOrder(err.Error(), tt.want) {
					t.Errorf("validation failed with %q, want %q", err, tt.want)
				}
			}
			if n := countTitled(t, url, v.Tag); n != tt.leaves {
				t.Errorf("validation left %d vacancies behind", n)
			}
		})
	}
}

// TestValidateMixedReportsItsOwnRows validates write and then mixed on a
// server whose delete does not delete: each reports the row its own cycle
// left, and mixed never the one write left before it.
func TestValidateMixedReportsItsOwnRows(t *testing.T) {
	ctx := context.Background()
	url := dbtest.Seeded(t)
	store := dbtest.Store(t, url, db.Options{MaxConns: 4})
	app, err := scenario.NewApp("candidate", scenario.KindREST, restServer(t, store, nil, http.MethodDelete).URL)
	if err != nil {
		t.Fatal(err)
	}
	c := scenario.NewClient(10*time.Second, nil)
	s, err := app.Login(ctx, c, "editor", "editor")
	if err != nil {
		t.Fatal(err)
	}
	p, err := dbprobe.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	ref, err := scenario.ReferenceFromDataset(seed.Generate(dbtest.Persons))
	if err != nil {
		t.Fatal(err)
	}
	v := &scenario.Validator{Client: c, Ref: ref, Tag: "crudbench test validation", CountVacancies: p.CountVacancies, VacanciesTitled: p.VacanciesTitled}
	left := regexp.MustCompile(`vacancy (\d+), created by validation, could not be removed`)
	rows := func(err error) []string {
		var ids []string
		for _, m := range left.FindAllStringSubmatch(errorText(err), -1) {
			ids = append(ids, m[1])
		}
		return ids
	}
	werr := v.Validate(ctx, s, scenario.Write)
	merr := v.Validate(ctx, s, scenario.Mixed)
	w, m := rows(werr), rows(merr)
	if len(w) != 1 || len(m) != 1 || w[0] == m[0] {
		t.Errorf("write reports rows %v left (%v), mixed %v (%v); want one each, not the same", w, werr, m, merr)
	}
	if want := "the write cycle changed the number of vacancies from 121 to 122"; !strings.Contains(errorText(merr), want) {
		t.Errorf("mixed: %v, want %q", merr, want)
	}
	if n := countTitled(t, url, v.Tag); n != 2 {
		t.Errorf("%d rows left, want write's and mixed's", n)
	}
}

func containsInOrder(s string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// countTitled counts, in the database, the vacancies whose title starts
// with prefix, and all vacancies beyond the dataset's.
func countTitled(t *testing.T, url, prefix string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var titled, all int
	if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE starts_with(title, $1)), count(*) FROM vacancy", prefix).Scan(&titled, &all); err != nil {
		t.Fatal(err)
	}
	if want := len(seed.Generate(dbtest.Persons).Vacancies); all != want+titled {
		t.Errorf("%d vacancies, want the dataset's %d (and %d titled %q)", all, want, titled, prefix)
	}
	return titled
}
