package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"crudbench/apps/internal/apptest"
	"crudbench/db/dbtest"
)

// With the database away, every operation answers UNAVAILABLE with HTTP 503
// and /readyz says so; when it returns, the app recovers without a restart.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	proxy, proxyURL := dbtest.NewProxy(t, dbtest.Seeded(t))
	app := startApp(t, appConfig{dbURL: proxyURL})
	token := app.login(t, "viewer")
	showcase := loadQuery(t, "showcase")
	vars := map[string]any{"id": "1"}
	status := func(path string) int {
		resp, err := http.Get(app.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if resp := app.post(t, token, showcase, vars); resp.Status != 200 || len(resp.Errors) > 0 {
		t.Fatalf("before the outage: HTTP %d %+v", resp.Status, resp.Errors)
	}

	proxy.Down()
	for name, query := range map[string]string{
		"showcase":        showcase,
		"two root fields": `{ vacancy(id: 1) { id } persons(first: 5) { nodes { id } } }`,
		"login":           loadQuery(t, "login"),
	} {
		resp := app.post(t, token, query, map[string]any{"id": "1", "username": "viewer", "password": "viewer"})
		if resp.Status != http.StatusServiceUnavailable || string(resp.Data) != "null" || len(resp.Errors) == 0 {
			t.Errorf("%s during the outage: HTTP %d data %s errors %+v", name, resp.Status, resp.Data, resp.Errors)
		}
		for _, e := range resp.Errors {
			if e.Extensions.Code != codeUnavailable {
				t.Errorf("%s during the outage: error %+v", name, e)
			}
		}
	}
	if got := status("/readyz"); got != http.StatusServiceUnavailable {
		t.Errorf("/readyz during the outage: HTTP %d", got)
	}
	if got := status("/healthz"); got != http.StatusOK {
		t.Errorf("/healthz during the outage: HTTP %d", got)
	}
	// A response that still has data keeps HTTP 200: introspection needs no
	// database.
	if resp := app.post(t, token, `{ __typename vacancy(id: 1) { id } }`, nil); resp.Status != 200 || len(resp.Errors) != 1 {
		t.Errorf("partial data during the outage: HTTP %d data %s errors %+v", resp.Status, resp.Data, resp.Errors)
	}

	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "the app to recover", func() bool {
		resp := app.post(t, token, showcase, vars)
		return resp.Status == 200 && len(resp.Errors) == 0
	})
	if got := status("/readyz"); got != http.StatusOK {
		t.Errorf("/readyz after the outage: HTTP %d", got)
	}
}

// TestDatabaseStall stalls the connection to the database, as a paused or
// unreachable server does (connections accepted, nothing answered): every
// operation answers UNAVAILABLE with HTTP 503 and Retry-After once its
// deadline passes, also when more requests wait than the pool has
// connections; /readyz answers 503 as promptly; the log names the outage and
// its cause; and once the database answers again the same server does too.
func TestDatabaseStall(t *testing.T) {
	t.Parallel()
	proxy, proxyURL := dbtest.NewProxy(t, dbtest.Seeded(t))
	app := startApp(t, appConfig{dbURL: proxyURL, maxConns: 2, timeout: apptest.StallTimeout})
	token := app.login(t, "viewer")
	showcase := loadQuery(t, "showcase")
	if resp := app.post(t, token, showcase, map[string]any{"id": "1"}); resp.Status != 200 || len(resp.Errors) > 0 {
		t.Fatalf("before the stall: HTTP %d %+v", resp.Status, resp.Errors)
	}

	proxy.Stall()
	for name, query := range map[string]string{
		"showcase":        showcase,
		"two root fields": `{ vacancy(id: 1) { id } persons(first: 5) { nodes { id } } }`,
		"login":           loadQuery(t, "login"),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			resp := app.post(t, token, query, map[string]any{"id": "1", "username": "viewer", "password": "viewer"})
			apptest.WantDeadline(t, name, time.Since(start))
			if resp.Status != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || string(resp.Data) != "null" || len(resp.Errors) == 0 {
				t.Errorf("HTTP %d Retry-After %q data %s errors %+v", resp.Status, resp.Header.Get("Retry-After"), resp.Data, resp.Errors)
			}
			for _, e := range resp.Errors {
				if e.Extensions.Code != codeUnavailable || e.Message != "the database did not answer in time" {
					t.Errorf("error %+v", e)
				}
			}
		})
	}
	t.Run("more requests than connections", func(t *testing.T) {
		body, err := json.Marshal(map[string]any{"query": showcase, "variables": map[string]any{"id": "1"}})
		if err != nil {
			t.Fatal(err)
		}
		reqs := make([]*http.Request, 6)
		for i := range reqs {
			req, err := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			reqs[i] = req
		}
		apptest.WantAllUnavailable(t, http.DefaultClient, reqs)
	})
	start := time.Now()
	resp, err := http.Get(app.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if took := time.Since(start); resp.StatusCode != http.StatusServiceUnavailable || took > apptest.StallTimeout+apptest.StallMargin {
		t.Errorf("/readyz during the stall: HTTP %d after %s", resp.StatusCode, took)
	}
	if l := app.logs.String(); !contains(l, `"msg":"database unavailable"`, "deadline exceeded", `"request_id"`, `"field":"person"`) {
		t.Errorf("the log does not name the outage, its cause, the request and the field:\n%s", l)
	}

	proxy.Resume()
	waitFor(t, 15*time.Second, "the app to recover", func() bool {
		resp := app.post(t, token, showcase, map[string]any{"id": "1"})
		return resp.Status == 200 && len(resp.Errors) == 0
	})
}
