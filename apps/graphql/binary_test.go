package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"crudbench/apps/internal/apptest"
	"crudbench/db/dbtest"
)

// The real binary, as a user runs it: configured by the environment, it
// listens, answers (pprof only on DEBUG_ADDR), and on SIGTERM shuts down
// gracefully with exit code 0.
func TestBinaryStartToStop(t *testing.T) {
	t.Parallel()
	bin := apptest.Build(t, "graphql")
	app := apptest.Start(t, bin, apptest.Env(
		"DATABASE_URL="+dbtest.Seeded(t),
		"ADDR=127.0.0.1:0",
		"AUTH_SECRET=binary-test-secret-0123456789",
		"LOG_LEVEL=info",
		"DEBUG_ADDR=127.0.0.1:0",
	))

	resp, err := http.Get(app.URL + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	post := func(token, query string, vars map[string]any) *gqlResponse {
		body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		req, _ := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return send(t, req)
	}
	var login struct{ Login struct{ Token string } }
	post("", loadQuery(t, "login"), map[string]any{"username": "viewer", "password": "viewer"}).decode(t, &login)
	var showcase struct{ Person struct{ LastName string } }
	post(login.Login.Token, loadQuery(t, "showcase"), map[string]any{"id": "1"}).decode(t, &showcase)
	if showcase.Person.LastName != "Lovelace" {
		t.Errorf("showcase = %+v", showcase)
	}
	apptest.WantDebugOnly(t, app)

	if got := strings.Join(app.Stop(t), ","); !strings.Contains(got, "shutting down,stopped") {
		t.Errorf("logs after SIGTERM: %s", got)
	}
}

// run reports configuration mistakes instead of starting, and -h is a clean
// exit.
func TestRunConfiguration(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, env(), io.Discard, &stderr); err != nil {
		t.Errorf("-h: %v", err)
	}
	if !strings.Contains(stderr.String(), "GRAPHQL_INTROSPECTION") {
		t.Errorf("-h does not mention GRAPHQL_INTROSPECTION:\n%s", stderr.String())
	}
	for _, tt := range []struct {
		env  func(string) string
		want string
	}{
		{env("GRAPHQL_INTROSPECTION", "maybe"), "GRAPHQL_INTROSPECTION"},
		{env("DB_MAX_CONNS", "0"), "DB_MAX_CONNS"},
		{env("ADDR", "nowhere"), "ADDR"},
	} {
		err := run(context.Background(), nil, tt.env, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one naming %s", err, tt.want)
		}
	}
}
