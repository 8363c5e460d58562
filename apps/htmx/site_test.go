package main

// The tests of a main package cannot live in an external _test package (a
// main package cannot be imported), so they are in package main. They still
// use the site only through HTTP, as a browser or the bench would: a real
// server (httptest) over a real PostgreSQL database (dbtest).

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/db"
	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// testSecret signs the sessions of the test sites.
var testSecret = []byte("htmx-test-secret-0123456789")

// testSite is the site served over its own database.
type testSite struct {
	URL     string
	store   *db.Store
	tokens  *auth.Tokens
	queries atomic.Int64 // SQL statements the site's Store sent
	logs    *syncBuffer  // the server's log
}

// newTestSite serves the site over a fresh copy of the seeded dataset.
func newTestSite(t testing.TB) *testSite {
	t.Helper()
	return startSite(t, dbtest.Seeded(t))
}

// startSite serves the site over the database at dbURL. The server's log is
// printed when the test fails.
func startSite(t testing.TB, dbURL string) *testSite {
	t.Helper()
	return startSiteWith(t, dbURL, db.Options{}, db.DefaultTimeout, rendererTemplate)
}

// forRenderers runs test as parallel subtests, one per renderer the site
// can be started with (see compiled.go), each on its own site over a fresh
// copy of the seeded dataset: the tuned renderer must pass what the default
// passes.
func forRenderers(t *testing.T, test func(t *testing.T, ts *testSite)) {
	t.Helper()
	for _, renderer := range []string{rendererTemplate, rendererTempl} {
		t.Run(renderer, func(t *testing.T) {
			t.Parallel()
			test(t, startSiteWith(t, dbtest.Seeded(t), db.Options{}, db.DefaultTimeout, renderer))
		})
	}
}

// startSiteWith is startSite with the Store's options, the request deadline
// and the renderer.
func startSiteWith(t testing.TB, dbURL string, opts db.Options, timeout time.Duration, renderer string) *testSite {
	t.Helper()
	ts := &testSite{tokens: auth.NewTokens(testSecret, time.Hour), logs: &syncBuffer{}}
	opts.OnQuery = func(string) { ts.queries.Add(1) }
	ts.store = dbtest.Store(t, dbURL, opts)
	logs := ts.logs
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	static, err := loadStatic()
	if err != nil {
		t.Fatal(err)
	}
	views, err := loadViews(logger, static, renderer)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NewServer(logger, ts.store, ts.tokens, timeout, views, metrics.New(ts.store.PoolStats)))
	t.Cleanup(func() {
		srv.Close()
		if t.Failed() && logs.Len() > 0 {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	ts.URL = srv.URL
	return ts
}

// syncBuffer is a bytes.Buffer safe for the server's concurrent logging.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// client is a browser-like HTTP client of a test site: it keeps cookies and
// does not follow redirects, so tests see every 303.
type client struct {
	t    *testing.T
	base string
	http *http.Client
}

func (ts *testSite) client(t *testing.T) *client {
	t.Helper()
	return &client{t: t, base: ts.URL, http: newHTTPClient(t)}
}

// newHTTPClient is an HTTP client with a cookie jar that returns redirects
// instead of following them.
func newHTTPClient(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{
		Jar:           jar,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// login returns a client signed in as username (whose password is the
// same, as in the seed).
func (ts *testSite) login(t *testing.T, username string) *client {
	t.Helper()
	c := ts.client(t)
	res := c.post("/login", url.Values{"username": {username}, "password": {username}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/persons" {
		t.Fatalf("login as %s = %d, Location %q; want 303 to /persons\n%s", username, res.Status, res.Header.Get("Location"), res.Body)
	}
	return c
}

// response is what a request got back.
type response struct {
	Status int
	Header http.Header
	Body   string
}

// hdr is a shorthand for request headers: name, value, name, value…
type hdr []string

// htmxHeaders are the headers htmx sends; target is the id of the element
// the response will be swapped into ("" for the body).
func htmxHeaders(target string) hdr {
	h := hdr{"HX-Request", "true"}
	if target != "" {
		h = append(h, "HX-Target", target)
	}
	return h
}

func (c *client) do(method, path string, body io.Reader, h hdr) response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(h); i += 2 {
		req.Header.Set(h[i], h[i+1])
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

func (c *client) get(path string, h ...string) response {
	c.t.Helper()
	return c.do(http.MethodGet, path, nil, h)
}

func (c *client) post(path string, form url.Values, h ...string) response {
	c.t.Helper()
	return c.do(http.MethodPost, path, strings.NewReader(form.Encode()), h)
}

// wantStatus fails the test unless res has status.
func wantStatus(t *testing.T, what string, res response, status int) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%s: status %d, want %d\n%s", what, res.Status, status, excerpt(res.Body))
	}
}

// wantBody fails the test unless the body holds every one of subs.
func wantBody(t *testing.T, what string, res response, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(res.Body, s) {
			t.Errorf("%s: body lacks %q\n%s", what, s, excerpt(res.Body))
		}
	}
}

// wantNoBody fails the test if the body holds any of subs.
func wantNoBody(t *testing.T, what string, res response, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if strings.Contains(res.Body, s) {
			t.Errorf("%s: body holds %q", what, s)
		}
	}
}

// excerpt shortens a body for a failure message.
func excerpt(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// count is how many times sub occurs in the body.
func (r response) count(sub string) int { return strings.Count(r.Body, sub) }

// hiddenVersion reads the form's hidden version field.
func (r response) hiddenVersion(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`name="version" value="(\d+)"`).FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("no version field in\n%s", excerpt(r.Body))
	}
	return m[1]
}

// vacancyForm is a complete, valid vacancy form as a browser sends it.
func vacancyForm(title string) url.Values {
	return url.Values{
		"title": {title}, "department": {"Physics"}, "location": {"Berlin"},
		"employmentType": {"full_time"}, "status": {"open"},
		"salaryMin": {"52000"}, "salaryMax": {"61000.50"},
		"opensOn": {"2030-01-15"}, "closesOn": {"2030-03-31"},
		"filledBy": {""}, "description": {"Build the\nbenchmark."},
	}
}

// personForm is a complete, valid person form.
func personForm(first, last, email string, employeeNo string) url.Values {
	return url.Values{
		"firstName": {first}, "lastName": {last}, "employeeNo": {employeeNo},
		"email": {email}, "phone": {"+49 30 1234"}, "department": {"Physics"},
		"status": {"active"}, "hiredOn": {"2024-04-01"},
	}
}
