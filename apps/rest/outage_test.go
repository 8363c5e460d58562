package main

import (
	"net/http"
	"testing"
	"time"

	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestDatabaseOutage cuts the connection to the database: readiness and
// data requests answer 503 (health still 200), and once the database is
// back the same server answers again without a restart.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppOn(t, dbtest.Store(t, url, db.Options{}))

	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
	a.do(t, "GET", "/api/persons/1", a.viewer, nil).want(t, http.StatusOK)

	proxy.Down()
	a.do(t, "GET", "/healthz", "", nil).want(t, http.StatusOK)
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusServiceUnavailable)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/persons/1"},
		{"GET", "/api/vacancies?status=open"},
		{"PATCH", "/api/vacancies/1"},
	} {
		var body any
		if c.method == "PATCH" {
			body = `{"version":1,"title":"during the outage"}`
		}
		res := a.do(t, c.method, c.path, a.editor, body)
		res.wantProblem(t, http.StatusServiceUnavailable)
		if res.header.Get("Retry-After") == "" {
			t.Errorf("%s %s: 503 without Retry-After", c.method, c.path)
		}
	}
	// Logging in needs the database too.
	a.do(t, "POST", "/api/login", "", `{"username":"editor","password":"editor"}`).wantProblem(t, http.StatusServiceUnavailable)

	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := a.do(t, "GET", "/api/persons/1", a.viewer, nil)
		if res.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d 10 s after the database came back: %s", res.status, res.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
}
