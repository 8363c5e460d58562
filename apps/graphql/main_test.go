package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// The tests live in package main (a command cannot be imported) and run the
// real handler over real HTTP against a real PostgreSQL database.

func TestMain(m *testing.M) { dbtest.Main(m) }

// testSecret signs the tokens of every test app.
var testSecret = []byte("graphql-test-secret-0123456789")

// testApp is the GraphQL app served by httptest over a test database.
type testApp struct {
	URL        string
	Store      *db.Store
	mu         sync.Mutex
	statements []string // SQL statements sent since the last reset
	logs       *syncBuffer
}

type appConfig struct {
	dbURL        string
	maxConns     int32         // the pool's size; 0 for the default
	timeout      time.Duration // the request deadline; 0 for the default
	noIntrospect bool
	handler      func(logger *slog.Logger, store *db.Store, tokens *auth.Tokens) http.Handler
}

// startApp serves the app over a fresh seeded database (or cfg.dbURL).
func startApp(t testing.TB, cfgs ...appConfig) *testApp {
	t.Helper()
	var cfg appConfig
	if len(cfgs) > 0 {
		cfg = cfgs[0]
	}
	if cfg.dbURL == "" {
		cfg.dbURL = dbtest.Seeded(t)
	}
	app := &testApp{logs: &syncBuffer{}}
	if cfg.timeout == 0 {
		cfg.timeout = db.DefaultTimeout
	}
	app.Store = dbtest.Store(t, cfg.dbURL, db.Options{MaxConns: cfg.maxConns, OnQuery: func(sql string) {
		app.mu.Lock()
		app.statements = append(app.statements, sql)
		app.mu.Unlock()
	}})
	logger := slog.New(slog.NewJSONHandler(io.MultiWriter(app.logs, t.Output()), nil))
	tokens := auth.NewTokens(testSecret, time.Hour)
	var h http.Handler
	if cfg.handler != nil {
		h = cfg.handler(logger, app.Store, tokens)
	} else {
		h = NewServer(logger, app.Store, tokens, cfg.timeout, Options{Introspection: !cfg.noIntrospect}, metrics.New(app.Store.PoolStats))
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	app.URL = srv.URL
	return app
}

// gqlResponse is a GraphQL response with the HTTP status and headers.
type gqlResponse struct {
	Status int
	Header http.Header
	Data   json.RawMessage `json:"data"`
	Errors []respError     `json:"errors"`
}

type respError struct {
	Message    string `json:"message"`
	Path       []any  `json:"path"`
	Extensions struct {
		Code   string            `json:"code"`
		Fields map[string]string `json:"fields"`
	} `json:"extensions"`
}

// codes lists the extensions.code of every error, in order.
func (r *gqlResponse) codes() []string {
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.Extensions.Code)
	}
	return out
}

// decode unmarshals the data into v, failing the test on any error in the
// response.
func (r *gqlResponse) decode(t testing.TB, v any) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected errors (HTTP %d): %+v", r.Status, r.Errors)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("decode data %s: %v", r.Data, err)
	}
}

// wantError checks that the response has exactly one error with code.
func (r *gqlResponse) wantError(t testing.TB, code string) respError {
	t.Helper()
	if len(r.Errors) != 1 || r.Errors[0].Extensions.Code != code {
		t.Fatalf("want one %s error, got HTTP %d data %s errors %+v", code, r.Status, r.Data, r.Errors)
	}
	return r.Errors[0]
}

// post sends a GraphQL request as JSON with token (if any) and returns the
// decoded response.
func (app *testApp) post(t testing.TB, token, query string, vars map[string]any) *gqlResponse {
	t.Helper()
	return app.postAccepting(t, "", token, query, vars)
}

// postAccepting is post with an Accept header (none when accept is "").
func (app *testApp) postAccepting(t testing.TB, accept, token, query string, vars map[string]any) *gqlResponse {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return send(t, req)
}

// send does req and decodes a GraphQL response.
func send(t testing.TB, req *http.Request) *gqlResponse {
	t.Helper()
	resp, raw := do(t, req)
	out := &gqlResponse{Status: resp.StatusCode, Header: resp.Header}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("HTTP %d: body is not a GraphQL response: %v\n%s", resp.StatusCode, err, raw)
	}
	return out
}

// do does req and returns the response with its whole body.
func do(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// login returns a token for one of the seeded users (viewer, editor).
func (app *testApp) login(t testing.TB, username string) string {
	t.Helper()
	resp := app.post(t, "", loadQuery(t, "login"), map[string]any{"username": username, "password": username})
	var data struct {
		Login struct {
			Token     string    `json:"token"`
			ExpiresAt time.Time `json:"expiresAt"`
		} `json:"login"`
	}
	resp.decode(t, &data)
	if data.Login.Token == "" {
		t.Fatalf("login %s: no token in %s", username, resp.Data)
	}
	return data.Login.Token
}

// loadQuery reads testdata/<name>.graphql: the documents the bench sends.
func loadQuery(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".graphql")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordStatements returns the SQL statements f made the store send.
func (app *testApp) recordStatements(f func()) []string {
	app.mu.Lock()
	app.statements = nil
	app.mu.Unlock()
	f()
	app.mu.Lock()
	defer app.mu.Unlock()
	return app.statements
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// contains reports whether s holds every one of subs.
func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
