package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/apps/internal/apptest"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/serve"
	"crudbench/db/dbtest"
)

// TestBinary builds the real binary, starts it as its own process against a
// seeded database, signs in and reads the showcase page over HTTP, finds
// pprof and its metrics on its DEBUG_ADDR and not on its public port, its
// metrics and nothing else on its METRICS_ADDR, then stops it with SIGTERM
// and expects a clean, graceful exit.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := apptest.Build(t, "htmx")
	app := apptest.Start(t, bin, apptest.Env(
		"DATABASE_URL="+dbtest.Seeded(t),
		"ADDR=127.0.0.1:0",
		"AUTH_SECRET="+string(testSecret),
		"LOG_LEVEL=info",
		"DEBUG_ADDR=127.0.0.1:0",
		"METRICS_ADDR=127.0.0.1:0",
	))
	c := &client{t: t, base: app.URL, http: newHTTPClient(t)}
	wantStatus(t, "healthz", c.get("/healthz"), http.StatusOK)
	wantStatus(t, "login", c.post("/login", url.Values{"username": {"viewer"}, "password": {"viewer"}}), http.StatusSeeOther)
	wantBody(t, "showcase", c.get("/persons/1"), "Lovelace", `class="stipend"`)
	apptest.WantDebugOnly(t, app, "/persons/{id}")
	apptest.WantMetricsOnly(t, app)
	apptest.WantProtocolRules(t, app)
	wantSessionAmongCookies(t, app.URL, c)

	if msgs := app.Stop(t); !slices.Contains(msgs, "stopped") {
		t.Errorf("log after SIGTERM: %q, want a \"stopped\" line", msgs)
	}
}

// wantSessionAmongCookies checks what the site does with its session cookie
// among many others: among as many as a browser keeps for a site it finds
// it; past serve.MaxCookies the request is refused with 431 before the site
// sees it, never served as signed out (net/http drops every cookie of a
// header holding more than 3000, the session's included).
func wantSessionAmongCookies(t *testing.T, base string, signedIn *client) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var session string
	for _, ck := range signedIn.http.Jar.Cookies(u) {
		if ck.Name == auth.CookieName {
			session = ck.String()
		}
	}
	if session == "" {
		t.Fatal("no session cookie after signing in")
	}
	noRedirects := &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for _, tt := range []struct {
		others int
		want   int
	}{
		{serve.MaxCookies - 1, http.StatusOK},
		{3000, http.StatusRequestHeaderFieldsTooLarge},
	} {
		var cookies strings.Builder
		for i := range tt.others {
			fmt.Fprintf(&cookies, "c%d=v; ", i)
		}
		req, err := http.NewRequest(http.MethodGet, base+"/persons/1", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Cookie", cookies.String()+session)
		res, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tt.want {
			t.Errorf("the session after %d other cookies: status %d (Location %q), want %d", tt.others, res.StatusCode, res.Header.Get("Location"), tt.want)
		}
	}
}

// waitForLog reads JSON log lines until one has msg; it returns that line.
func waitForLog(t *testing.T, logs <-chan string, msg string, timeout time.Duration) map[string]any {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-logs:
			if !ok {
				t.Fatalf("the log ended before %q", msg)
			}
			var entry map[string]any
			if err := json.Unmarshal([]byte(line), &entry); err != nil {
				t.Fatalf("log line is not JSON: %q", line)
			}
			if entry["msg"] == msg {
				return entry
			}
		case <-deadline:
			t.Fatalf("no %q log within %v", msg, timeout)
		}
	}
}

// TestRun runs the program in-process: it serves until its context ends and
// then returns nil; -h is a clean exit; bad settings are errors.
func TestRun(t *testing.T) {
	t.Parallel()
	getenv := func(env map[string]string) func(string) string {
		return func(k string) string { return env[k] }
	}

	if err := run(context.Background(), []string{"-h"}, getenv(nil), io.Discard, io.Discard); err != nil {
		t.Errorf("run -h = %v, want nil", err)
	}
	err := run(context.Background(), []string{"-db-max-conns", "0"}, getenv(nil), io.Discard, io.Discard)
	if err == nil {
		t.Error("run with DB_MAX_CONNS 0 succeeded")
	}
	err = run(context.Background(), nil, getenv(map[string]string{"HTMX_RENDERER": "jinja"}), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "HTMX_RENDERER") {
		t.Errorf("run with HTMX_RENDERER jinja: %v, want an error naming it", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, nil, getenv(map[string]string{
			"DATABASE_URL": dbtest.Empty(t), "ADDR": "127.0.0.1:0", "AUTH_SECRET": string(testSecret),
		}), w, io.Discard)
		w.Close()
	}()
	logs := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			logs <- sc.Text()
		}
		close(logs)
	}()
	addr := waitForLog(t, logs, "listening", 10*time.Second)["addr"].(string)
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("healthz = %d", res.StatusCode)
	}
	cancel()
	go func() {
		for range logs {
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run after cancel = %v, want nil", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return 15 s after its context ended")
	}
}
