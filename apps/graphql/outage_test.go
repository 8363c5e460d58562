package main

import (
	"net/http"
	"testing"
	"time"

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
