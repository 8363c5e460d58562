package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"crudbench/apps/internal/apptest"
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
	a.waitForPerson(t)
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
}

// TestDatabaseStall stalls the connection to the database, as a paused or
// unreachable server does (connections accepted, nothing answered): every
// request that needs the database gets a 503 problem with Retry-After once
// its deadline passes, also when more requests wait than the pool has
// connections; /readyz answers 503 as promptly; the log names the cause; and
// once the database answers again the same server does too.
func TestDatabaseStall(t *testing.T) {
	t.Parallel()
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	var logs apptest.Buffer
	a := newAppWith(t, dbtest.Store(t, url, db.Options{MaxConns: 2}), apptest.StallTimeout, &logs)
	a.do(t, "GET", "/api/persons/1", a.viewer, nil).want(t, http.StatusOK)

	proxy.Stall()
	for _, c := range []struct{ method, path, token, body string }{
		{"GET", "/api/persons/1", a.viewer, ""},
		{"GET", "/api/vacancies?status=open", a.viewer, ""},
		{"PATCH", "/api/vacancies/1", a.editor, `{"version":1,"title":"during the stall"}`},
		{"POST", "/api/login", "", `{"username":"editor","password":"editor"}`},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			var body any
			if c.body != "" {
				body = c.body
			}
			start := time.Now()
			res := a.do(t, c.method, c.path, c.token, body)
			apptest.WantDeadline(t, c.method+" "+c.path, time.Since(start))
			p := res.wantProblem(t, http.StatusServiceUnavailable)
			if p.Detail != "the database did not answer in time" {
				t.Errorf("detail %q", p.Detail)
			}
			if res.header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
		})
	}
	t.Run("more requests than connections", func(t *testing.T) {
		reqs := make([]*http.Request, 6)
		for i := range reqs {
			req, err := http.NewRequest("GET", a.url+"/api/persons/1", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+a.viewer)
			reqs[i] = req
		}
		apptest.WantAllUnavailable(t, a.client, reqs)
	})
	start := time.Now()
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusServiceUnavailable)
	if took := time.Since(start); took > apptest.StallTimeout+apptest.StallMargin {
		t.Errorf("/readyz took %s during the stall", took)
	}
	a.do(t, "GET", "/healthz", "", nil).want(t, http.StatusOK)
	if l := logs.String(); !strings.Contains(l, `"msg":"database unavailable"`) || !strings.Contains(l, "deadline exceeded") || !strings.Contains(l, `"request_id"`) {
		t.Errorf("the log does not name the outage, its cause and the request:\n%s", l)
	}

	proxy.Resume()
	a.waitForPerson(t)
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
}

// waitForPerson waits up to 15 s for the app to serve a person again after
// the database came back.
func (a *testApp) waitForPerson(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := a.do(t, "GET", "/api/persons/1", a.viewer, nil)
		if res.status == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d 15 s after the database came back: %s", res.status, res.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
