package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"crudbench/apps/internal/apptest"
	"crudbench/apps/internal/auth"
	"crudbench/db/dbtest"
)

// TestBinary builds the real binary and runs it as an operator would: it
// listens on the ADDR it is given (and serves pprof on DEBUG_ADDR only,
// metrics and nothing else on METRICS_ADDR), answers, and stops cleanly on
// SIGTERM.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := apptest.Build(t, "rest")
	dbURL := dbtest.Seeded(t)

	t.Run("serves until SIGTERM", func(t *testing.T) {
		app := apptest.Start(t, bin, apptest.Env("DATABASE_URL="+dbURL, "ADDR=127.0.0.1:0", "DEBUG_ADDR=127.0.0.1:0", "METRICS_ADDR=127.0.0.1:0"))
		warned := false
		for _, line := range app.Startup {
			msg, _ := line["msg"].(string)
			warned = warned || strings.Contains(msg, "AUTH_SECRET")
		}
		if !warned {
			t.Error("no warning about the development AUTH_SECRET")
		}

		res, err := http.Get(app.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != "ok" {
			t.Errorf("/healthz: %d %q", res.StatusCode, body)
		}
		req, _ := http.NewRequest("GET", app.URL+"/api/persons/1", nil)
		req.Header.Set("Authorization", "Bearer "+loginAs(t, app.URL, "viewer"))
		res, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET /api/persons/1 with the token: %d", res.StatusCode)
		}
		apptest.WantDebugOnly(t, app, "/api/persons/{id}")
		apptest.WantMetricsOnly(t, app)
		apptest.WantProtocolRules(t, app)

		if msgs := app.Stop(t); strings.Join(msgs, ",") != "shutting down,stopped" {
			t.Errorf("log after SIGTERM: %q, want shutting down, stopped", msgs)
		}
	})

	t.Run("help", func(t *testing.T) {
		cmd := exec.CommandContext(quick(t), bin, "-h")
		cmd.Env = apptest.Env()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("-h: %v", err)
		}
		for _, want := range []string{"-addr", "DATABASE_URL", "AUTH_SECRET"} {
			if !bytes.Contains(out, []byte(want)) {
				t.Errorf("-h does not mention %s:\n%s", want, out)
			}
		}
	})

	t.Run("REQUEST_TIMEOUT bounds a stalled database", func(t *testing.T) {
		proxy, proxyURL := dbtest.NewProxy(t, dbURL)
		app := apptest.Start(t, bin, apptest.Env("DATABASE_URL="+proxyURL, "ADDR=127.0.0.1:0", "REQUEST_TIMEOUT="+apptest.StallTimeout.String(),
			"AUTH_SECRET="+string(testSecret)))
		defer app.Stop(t)
		// Signed here, not got by logging in: a login's bcrypt under the
		// short deadline answered 503 on a loaded machine.
		token := issue(t, auth.NewTokens(testSecret, time.Hour), 1, "viewer", auth.RoleViewer)
		proxy.Stall()
		defer proxy.Resume()
		req, _ := http.NewRequest("GET", app.URL+"/api/persons/1", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		// The margin ends before the 5 s default would.
		apptest.WantDeadline(t, "GET /api/persons/1", time.Since(start))
		if res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("GET /api/persons/1 on a stalled database: %d, want 503", res.StatusCode)
		}
	})

	t.Run("bad configuration", func(t *testing.T) {
		cmd := exec.CommandContext(quick(t), bin)
		cmd.Env = apptest.Env("DB_MAX_CONNS=0")
		out, err := cmd.CombinedOutput()
		if exit, ok := errors.AsType[*exec.ExitError](err); !ok || exit.ExitCode() != 1 {
			t.Errorf("DB_MAX_CONNS=0: %v, want exit status 1", err)
		}
		if !bytes.Contains(out, []byte("DB_MAX_CONNS")) {
			t.Errorf("the error does not name DB_MAX_CONNS: %s", out)
		}
	})

	t.Run("address in use", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		cmd := exec.CommandContext(quick(t), bin, "-addr", ln.Addr().String())
		cmd.Env = apptest.Env("DATABASE_URL=" + dbURL)
		out, err := cmd.CombinedOutput()
		if exit, ok := errors.AsType[*exec.ExitError](err); !ok || exit.ExitCode() != 1 {
			t.Errorf("listening on a used address: %v, want exit status 1; output: %s", err, out)
		}
	})
}

// quick bounds a run of the binary that should end by itself at once, so a
// hang fails the test instead of stalling it.
func quick(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// loginAs logs in to the app at url as username (whose password is the
// same, as in the seed) and returns the token.
func loginAs(t *testing.T, url, username string) string {
	t.Helper()
	res, err := http.Post(url+"/api/login", "application/json", strings.NewReader(`{"username":"`+username+`","password":"`+username+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var login loginResponse
	err = json.NewDecoder(res.Body).Decode(&login)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("login: %d %v", res.StatusCode, err)
	}
	return login.Token
}
