package main

// The tests live in package main because a command cannot be imported; they
// still talk to the app only over real HTTP (httptest.Server around
// NewServer, or the built binary), against real PostgreSQL databases from
// dbtest. Every response they receive is checked against the OpenAPI
// document (see checkContract).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/resources"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// testSecret signs the tokens of the test servers.
var testSecret = []byte("rest-tests-secret-0123456789")

// testApp is the REST app served over HTTP on a database of its own, with
// ready-made tokens for the two roles.
type testApp struct {
	url    string
	client *http.Client
	viewer string // token of a viewer
	editor string // token of an editor
}

// newApp serves the app on a fresh copy of the seeded database.
func newApp(t testing.TB) *testApp {
	t.Helper()
	return newAppOn(t, dbtest.Store(t, dbtest.Seeded(t), db.Options{}))
}

// newAppOn serves the app on store with the default request deadline.
func newAppOn(t testing.TB, store *db.Store) *testApp {
	t.Helper()
	return newAppWith(t, store, db.DefaultTimeout, io.Discard)
}

// newAppWith serves the app on store with the given request deadline,
// writing its log to logs.
func newAppWith(t testing.TB, store *db.Store, timeout time.Duration, logs io.Writer) *testApp {
	t.Helper()
	tokens := auth.NewTokens(testSecret, time.Hour)
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	srv := httptest.NewServer(NewServer(logger, store, tokens, timeout, metrics.New(store.PoolStats)))
	t.Cleanup(srv.Close)
	a := &testApp{url: srv.URL, client: srv.Client()}
	a.viewer = issue(t, tokens, 1, "viewer", auth.RoleViewer)
	a.editor = issue(t, tokens, 2, "editor", auth.RoleEditor)
	return a
}

func issue(t testing.TB, tokens *auth.Tokens, id int64, name string, role auth.Role) string {
	t.Helper()
	tok, _, err := tokens.Issue(id, name, role)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// response is what the app answered.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request and checks the answer against the OpenAPI document.
// body is sent as is when it is a string (with Content-Type
// application/json unless headers say otherwise), marshalled otherwise, and
// left out when nil. headers are name, value pairs.
func (a *testApp) do(t testing.TB, method, path, token string, body any, headers ...string) response {
	t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, a.url+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	res, err := a.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	out := response{status: res.StatusCode, header: res.Header, body: got}
	checkContract(t, req, raw, out)
	return out
}

// want fails the test unless the response has the given status.
func (r response) want(t testing.TB, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body: %s", r.status, status, r.body)
	}
	return r
}

// decode unmarshals the body into a new T.
func decodeBody[T any](t testing.TB, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
	return v
}

// wantProblem fails unless the response is a problem with the given status
// and, for each field named, a message for it.
func (r response) wantProblem(t testing.TB, status int, fields ...string) problem {
	t.Helper()
	r.want(t, status)
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json", ct)
	}
	p := decodeBody[problem](t, r)
	for _, f := range fields {
		if p.Fields[f] == "" {
			t.Errorf("problem %+v names no problem with field %q", p, f)
		}
	}
	return p
}

// contract is the OpenAPI document and a router over it, loaded once.
var contract = sync.OnceValues(func() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(resources.OpenAPI)
	if err != nil {
		return nil, fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is invalid: %w", err)
	}
	return doc, nil
})

var contractRouter = sync.OnceValues(func() (routers.Router, error) {
	doc, err := contract()
	if err != nil {
		return nil, err
	}
	return legacy.NewRouter(doc)
})

// checkContract fails the test when a response does not match the OpenAPI
// document: an undocumented status, header or body shape. A request the app
// accepted (2xx) must match the document too, so that the document never
// forbids what the app takes. Answers for paths or methods the document
// does not have (404, 405) must still be problems.
func checkContract(t testing.TB, req *http.Request, reqBody []byte, res response) {
	t.Helper()
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	router, err := contractRouter()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	route, params, err := router.FindRoute(req)
	// The document's router forgives a trailing slash and matches an empty
	// path parameter; the app does neither.
	if err == nil && (len(req.URL.Path) > 1 && strings.HasSuffix(req.URL.Path, "/") || slices.Contains(slices.Collect(maps.Values(params)), "")) {
		err = fmt.Errorf("%s %s is not in the document", req.Method, req.URL.Path)
	}
	if err != nil {
		if res.status != http.StatusNotFound && res.status != http.StatusMethodNotAllowed {
			t.Fatalf("%s %s is not in the OpenAPI document, yet the app answered %d", req.Method, req.URL.Path, res.status)
		}
		if ct := res.header.Get("Content-Type"); ct != "application/problem+json" {
			t.Fatalf("%s %s: %d with Content-Type %q, want application/problem+json", req.Method, req.URL.Path, res.status, ct)
		}
		var v any
		if err := json.Unmarshal(res.body, &v); err != nil {
			t.Fatalf("%s %s: problem body is not JSON: %v", req.Method, req.URL.Path, err)
		}
		schema := doc.Components.Schemas["Problem"].Value
		if err := doc.ValidateSchemaJSON(schema, v, openapi3.EnableJSONSchema2020()); err != nil {
			t.Fatalf("%s %s: the %d body is not a Problem: %v", req.Method, req.URL.Path, res.status, err)
		}
		return
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    req.Clone(ctx),
		PathParams: params,
		Route:      route,
		Options:    &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	in.Request.Body = io.NopCloser(bytes.NewReader(reqBody))
	if res.status >= 200 && res.status < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			t.Fatalf("%s %s was accepted (%d) but the OpenAPI document rejects the request: %v", req.Method, req.URL.Path, res.status, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 res.status,
		Header:                 res.header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	out.SetBodyBytes(res.body)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		t.Fatalf("%s %s: the %d response does not match the OpenAPI document: %v\nbody: %.500s", req.Method, req.URL.Path, res.status, err, res.body)
	}
}

// vacancyBody is a valid new vacancy; change fields to break it.
func vacancyBody() map[string]any {
	return map[string]any{
		"title":          "Research Software Engineer",
		"department":     "Computing",
		"location":       "Berlin",
		"employmentType": "full_time",
		"salaryMinCents": 5_000_000,
		"salaryMaxCents": 7_000_000,
		"status":         "open",
		"opensOn":        "2025-01-15",
		"closesOn":       "2025-03-31",
		"description":    "Build the tools our scientists use.",
	}
}

// personBody is a valid new person with a unique employee number and email.
func personBody(n int) map[string]any {
	return map[string]any{
		"employeeNo": 900_000 + n,
		"firstName":  "Grace",
		"lastName":   "Hopper",
		"email":      fmt.Sprintf("grace.hopper.%d@example.org", n),
		"phone":      "+49 30 1234-567",
		"department": "Computing",
		"status":     "active",
		"hiredOn":    "2024-09-01",
	}
}

// snapshot returns the whole content the API shows of persons and
// vacancies, to prove that rejected requests changed nothing.
func (a *testApp) snapshot(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	b.Write(a.do(t, "GET", "/api/persons?limit=1000", a.viewer, nil).want(t, 200).body)
	b.Write(a.do(t, "GET", "/api/vacancies?limit=1000", a.viewer, nil).want(t, 200).body)
	return b.String()
}
