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

// variants are the builds of this app that the bench measures, as the
// runner starts them: the default, and graphql-tuned, the same binary with
// the garbage collector running a quarter as often (README, "The tuned
// variant"). Both must serve the same answers.
var variants = []struct {
	name string
	env  []string
}{
	{"graphql", nil},
	{"graphql-tuned", []string{"GOGC=400"}},
}

// startVariant starts bin with the variant's environment over dbURL.
func startVariant(t *testing.T, bin, dbURL string, env []string) *apptest.Process {
	t.Helper()
	return apptest.Start(t, bin, apptest.Env(append([]string{
		"DATABASE_URL=" + dbURL,
		"ADDR=127.0.0.1:0",
		"AUTH_SECRET=binary-test-secret-0123456789",
		"LOG_LEVEL=info",
		"DEBUG_ADDR=127.0.0.1:0",
		"METRICS_ADDR=127.0.0.1:0",
	}, env...)...))
}

// postTo sends a GraphQL request to the app at base and returns the HTTP
// response with its whole body.
func postTo(t *testing.T, base, token, query string, vars map[string]any) (*http.Response, []byte) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

// loginTo returns a viewer's token from the app at base.
func loginTo(t *testing.T, base string) string {
	t.Helper()
	_, raw := postTo(t, base, "", loadQuery(t, "login"), map[string]any{"username": "viewer", "password": "viewer"})
	var login struct {
		Data struct{ Login struct{ Token string } }
	}
	if err := json.Unmarshal(raw, &login); err != nil || login.Data.Login.Token == "" {
		t.Fatalf("login: %v %s", err, raw)
	}
	return login.Data.Login.Token
}

// The real binary, as a user runs it: configured by the environment, it
// listens, answers (pprof only on DEBUG_ADDR, metrics alone on
// METRICS_ADDR), and on SIGTERM shuts down gracefully with exit code 0.
func TestBinaryStartToStop(t *testing.T) {
	t.Parallel()
	bin := apptest.Build(t, "graphql")
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			app := startVariant(t, bin, dbtest.Seeded(t), v.env)

			resp, err := http.Get(app.URL + "/healthz")
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("/healthz: %v %v", resp, err)
			}
			resp.Body.Close()
			_, raw := postTo(t, app.URL, loginTo(t, app.URL), loadQuery(t, "showcase"), map[string]any{"id": "1"})
			var showcase struct {
				Data struct{ Person struct{ LastName string } }
			}
			if err := json.Unmarshal(raw, &showcase); err != nil || showcase.Data.Person.LastName != "Lovelace" {
				t.Errorf("showcase: %v %s", err, raw)
			}
			apptest.WantDebugOnly(t, app, "/graphql")
			apptest.WantMetricsOnly(t, app)
			apptest.WantProtocolRules(t, app)

			if got := strings.Join(app.Stop(t), ","); !strings.Contains(got, "shutting down,stopped") {
				t.Errorf("logs after SIGTERM: %s", got)
			}
		})
	}
}

// Every variant answers the bench's queries with the same bytes as the
// default over the same database: a tuned build does the same work.
func TestVariantsAnswerAlike(t *testing.T) {
	t.Parallel()
	bin := apptest.Build(t, "graphql")
	dbURL := dbtest.Seeded(t)
	queries := []struct {
		name string
		vars map[string]any
	}{
		{"showcase", map[string]any{"id": "1"}},
		{"open_vacancies", nil},
		{"all_persons", nil},
	}
	answers := func(t *testing.T, env []string) map[string]string {
		t.Helper()
		app := startVariant(t, bin, dbURL, env)
		token := loginTo(t, app.URL)
		out := map[string]string{}
		for _, q := range queries {
			resp, raw := postTo(t, app.URL, token, loadQuery(t, q.name), q.vars)
			if resp.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"errors"`)) {
				t.Fatalf("%s: HTTP %d %s", q.name, resp.StatusCode, raw)
			}
			out[q.name] = string(raw)
		}
		return out
	}
	want := answers(t, variants[0].env)
	for _, v := range variants[1:] {
		t.Run(v.name, func(t *testing.T) {
			got := answers(t, v.env)
			for _, q := range queries {
				if got[q.name] != want[q.name] {
					t.Errorf("%s differs from %s's answer:\n got %.300s\nwant %.300s", q.name, variants[0].name, got[q.name], want[q.name])
				}
			}
		})
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
