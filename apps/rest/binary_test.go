package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"crudbench/db/dbtest"
)

// TestBinary builds the real binary and runs it as an operator would: it
// listens on the ADDR it is given, answers, and stops cleanly on SIGTERM.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dbURL := dbtest.Seeded(t)

	t.Run("serves until SIGTERM", func(t *testing.T) {
		cmd := exec.Command(bin)
		cmd.Env = appEnv("DATABASE_URL="+dbURL, "ADDR=127.0.0.1:0")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })

		logs := make(chan map[string]any, 100)
		go func() {
			defer close(logs)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var line map[string]any
				if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
					t.Errorf("a log line is not JSON: %q", sc.Text())
					continue
				}
				logs <- line
			}
		}()
		var addr string
		var warned bool
		timeout := time.After(15 * time.Second)
		for addr == "" {
			select {
			case line, ok := <-logs:
				if !ok {
					t.Fatalf("the app exited before listening; stderr: %s", stderr.String())
				}
				warned = warned || strings.Contains(line["msg"].(string), "AUTH_SECRET")
				if line["msg"] == "listening" {
					addr = line["addr"].(string)
				}
			case <-timeout:
				t.Fatalf("no \"listening\" log line within 15 s; stderr: %s", stderr.String())
			}
		}
		if !warned {
			t.Error("no warning about the development AUTH_SECRET")
		}
		base := "http://" + addr

		res, err := http.Get(base + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != "ok" {
			t.Errorf("/healthz: %d %q", res.StatusCode, body)
		}
		res, err = http.Post(base+"/api/login", "application/json", strings.NewReader(`{"username":"viewer","password":"viewer"}`))
		if err != nil {
			t.Fatal(err)
		}
		var login loginResponse
		err = json.NewDecoder(res.Body).Decode(&login)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("login: %d %v", res.StatusCode, err)
		}
		req, _ := http.NewRequest("GET", base+"/api/persons/1", nil)
		req.Header.Set("Authorization", "Bearer "+login.Token)
		res, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET /api/persons/1 with the token: %d", res.StatusCode)
		}

		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		var msgs []string
		deadline := time.After(15 * time.Second)
	drain:
		for {
			select {
			case line, ok := <-logs:
				if !ok {
					break drain
				}
				msgs = append(msgs, line["msg"].(string))
			case <-deadline:
				t.Fatalf("still running 15 s after SIGTERM; log: %q", msgs)
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("exit after SIGTERM: %v; stderr: %s", err, stderr.String())
		}
		if strings.Join(msgs, ",") != "shutting down,stopped" {
			t.Errorf("log after SIGTERM: %q, want shutting down, stopped", msgs)
		}
	})

	t.Run("help", func(t *testing.T) {
		cmd := exec.CommandContext(quick(t), bin, "-h")
		cmd.Env = appEnv()
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

	t.Run("bad configuration", func(t *testing.T) {
		cmd := exec.CommandContext(quick(t), bin)
		cmd.Env = appEnv("DB_MAX_CONNS=0")
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
		cmd.Env = appEnv("DATABASE_URL=" + dbURL)
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

// buildBinary compiles the app into a temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the app for this test: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "rest")
	out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// appEnv is the test process's environment without the app's settings,
// plus the given ones.
func appEnv(settings ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DATABASE_URL", "ADDR", "DB_MAX_CONNS", "LOG_LEVEL", "AUTH_SECRET", "TOKEN_TTL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, settings...)
}
