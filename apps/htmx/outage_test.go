package main

import (
	"net/http"
	"testing"
	"time"

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
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := editor.get("/persons/1")
		if res.Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery 10 s after the database returned: %d", res.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
	wantStatus(t, "after readyz", editor.get("/readyz"), http.StatusOK)
}
