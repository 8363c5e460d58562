package main

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

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
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := a.do(t, "GET", "/api/persons/1", a.viewer, nil)
		if res.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d 10 s after the database came back: %s", res.status, res.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
}

// stallTimeout is the request deadline of the stall tests: short, so that a
// request that waits for it stands out from one that hangs for good.
const stallTimeout = 500 * time.Millisecond

// stallMargin is how late after its deadline a 503 may come on a loaded
// machine; a request that hangs on the stalled database never comes.
const stallMargin = 4 * time.Second

// TestDatabaseStall stalls the connection to the database, as a paused or
// unreachable server does (connections accepted, nothing answered): every
// request that needs the database gets a 503 problem with Retry-After once
// its deadline passes, also when more requests wait than the pool has
// connections; /readyz answers 503 as promptly; the log names the cause; and
// once the database answers again the same server does too.
func TestDatabaseStall(t *testing.T) {
	t.Parallel()
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	var logs lockedBuffer
	a := newAppWith(t, dbtest.Store(t, url, db.Options{MaxConns: 2}), stallTimeout, &logs)
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
			wantDeadline(t, time.Since(start))
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
		const n = 6
		type result struct {
			status     int
			retryAfter string
			took       time.Duration
			err        error
		}
		results := make(chan result, n)
		for range n {
			go func() {
				req, err := http.NewRequest("GET", a.url+"/api/persons/1", nil)
				if err != nil {
					results <- result{err: err}
					return
				}
				req.Header.Set("Authorization", "Bearer "+a.viewer)
				start := time.Now()
				resp, err := a.client.Do(req)
				if err != nil {
					results <- result{err: err}
					return
				}
				resp.Body.Close()
				results <- result{resp.StatusCode, resp.Header.Get("Retry-After"), time.Since(start), nil}
			}()
		}
		for range n {
			r := <-results
			if r.err != nil {
				t.Fatal(r.err)
			}
			if r.status != http.StatusServiceUnavailable || r.retryAfter == "" {
				t.Errorf("HTTP %d, Retry-After %q; want 503 with Retry-After", r.status, r.retryAfter)
			}
			wantDeadline(t, r.took)
		}
	})
	start := time.Now()
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusServiceUnavailable)
	if took := time.Since(start); took > stallTimeout+stallMargin {
		t.Errorf("/readyz took %s during the stall", took)
	}
	a.do(t, "GET", "/healthz", "", nil).want(t, http.StatusOK)
	if l := logs.String(); !strings.Contains(l, `"msg":"database unavailable"`) || !strings.Contains(l, "deadline exceeded") || !strings.Contains(l, `"request_id"`) {
		t.Errorf("the log does not name the outage, its cause and the request:\n%s", l)
	}

	proxy.Resume()
	deadline := time.Now().Add(15 * time.Second)
	for {
		res := a.do(t, "GET", "/api/persons/1", a.viewer, nil)
		if res.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d 15 s after the database resumed: %s", res.status, res.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
}

// wantDeadline fails unless a request that waited for the stalled database
// was answered at its deadline: not before (the database cannot have
// answered), and not much later.
func wantDeadline(t *testing.T, took time.Duration) {
	t.Helper()
	if took < stallTimeout || took > stallTimeout+stallMargin {
		t.Errorf("answered after %s, want %s and at most %s more", took, stallTimeout, stallMargin)
	}
}

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
