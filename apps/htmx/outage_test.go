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

// TestDatabaseOutage cuts the database away under a running site: pages
// answer the 503 page (and /readyz 503) instead of hanging or erroring, the
// session keeps working (it needs no database), and the site recovers by
// itself when the database returns.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	proxy, dbURL := dbtest.NewProxy(t, dbtest.Seeded(t))
	ts := startSite(t, dbURL)
	editor := ts.login(t, "editor")
	wantStatus(t, "before", editor.get("/persons/1"), http.StatusOK)

	proxy.Down()
	for _, path := range []string{"/persons/1", "/persons", "/vacancies?status=open"} {
		res := editor.get(path)
		wantStatus(t, "down "+path, res, http.StatusServiceUnavailable)
		wantBody(t, "down "+path, res, "Database unavailable", "try again in a few seconds")
		wantNoBody(t, "down "+path, res, "dial", "connect", "127.0.0.1")
		if res.Header.Get("Retry-After") == "" {
			t.Errorf("down %s: no Retry-After", path)
		}
	}
	res := editor.post("/vacancies", vacancyForm("During the outage"))
	wantStatus(t, "down write", res, http.StatusServiceUnavailable)
	res = ts.client(t).post("/login", map[string][]string{"username": {"editor"}, "password": {"editor"}})
	wantStatus(t, "down login", res, http.StatusServiceUnavailable)
	wantStatus(t, "down readyz", editor.get("/readyz"), http.StatusServiceUnavailable)
	wantStatus(t, "down healthz", editor.get("/healthz"), http.StatusOK)
	res = editor.get("/persons/1", htmxHeaders("")...)
	wantStatus(t, "down htmx", res, http.StatusServiceUnavailable)
	wantBody(t, "down htmx", res, "<title>Database unavailable · crudbench</title>")

	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	waitForPerson(t, editor)
	wantStatus(t, "after readyz", editor.get("/readyz"), http.StatusOK)
}

// TestDatabaseStall stalls the connection to the database, as a paused or
// unreachable server does (connections accepted, nothing answered): every
// page that needs the database answers the 503 page with Retry-After once
// its deadline passes, also when more requests wait than the pool has
// connections; /readyz answers 503 as promptly; the log names the outage and
// its cause; and once the database answers again the same site does too.
func TestDatabaseStall(t *testing.T) {
	t.Parallel()
	proxy, dbURL := dbtest.NewProxy(t, dbtest.Seeded(t))
	ts := startSiteWith(t, dbURL, db.Options{MaxConns: 2}, apptest.StallTimeout, rendererTemplate)
	editor := ts.login(t, "editor")
	wantStatus(t, "before", editor.get("/persons/1"), http.StatusOK)

	proxy.Stall()
	for _, c := range []struct {
		name string
		send func() response
	}{
		{"person page", func() response { return editor.get("/persons/1") }},
		{"person fragment", func() response { return editor.get("/persons/1", htmxHeaders("")...) }},
		{"vacancy list", func() response { return editor.get("/vacancies?status=open") }},
		{"write", func() response { return editor.post("/vacancies", vacancyForm("During the stall")) }},
		{"login", func() response {
			return ts.client(t).post("/login", map[string][]string{"username": {"editor"}, "password": {"editor"}})
		}},
	} {
		// The clients belong to this test's goroutine: no subtests here.
		start := time.Now()
		res := c.send()
		apptest.WantDeadline(t, c.name, time.Since(start))
		wantStatus(t, c.name, res, http.StatusServiceUnavailable)
		wantBody(t, c.name, res, "<title>Database unavailable · crudbench</title>", "try again in a few seconds")
		wantNoBody(t, c.name, res, "deadline", "timeout", "127.0.0.1")
		if res.Header.Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", c.name)
		}
	}
	reqs := make([]*http.Request, 6)
	for i := range reqs {
		req, err := http.NewRequest("GET", ts.URL+"/persons/1", nil)
		if err != nil {
			t.Fatal(err)
		}
		reqs[i] = req
	}
	apptest.WantAllUnavailable(t, editor.http, reqs)
	start := time.Now()
	wantStatus(t, "stalled readyz", editor.get("/readyz"), http.StatusServiceUnavailable)
	if took := time.Since(start); took > apptest.StallTimeout+apptest.StallMargin {
		t.Errorf("/readyz took %s during the stall", took)
	}
	wantStatus(t, "stalled healthz", editor.get("/healthz"), http.StatusOK)
	if l := ts.logs.String(); !strings.Contains(l, `msg="database unavailable"`) || !strings.Contains(l, "deadline exceeded") || !strings.Contains(l, "request_id=") {
		t.Errorf("the log does not name the outage, its cause and the request:\n%s", l)
	}

	proxy.Resume()
	waitForPerson(t, editor)
	wantStatus(t, "after readyz", editor.get("/readyz"), http.StatusOK)
}

// waitForPerson waits up to 15 s for the site to show a person again after
// the database came back.
func waitForPerson(t *testing.T, c *client) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := c.get("/persons/1")
		if res.Status == http.StatusOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery 15 s after the database came back: %d", res.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
