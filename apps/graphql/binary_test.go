package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"crudbench/db/dbtest"
)

// The real binary, as a user runs it: configured by the environment, it
// listens, answers, and on SIGTERM shuts down gracefully with exit code 0.
func TestBinaryStartToStop(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "graphql")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	cmd := exec.Command(bin)
	cmd.Env = []string{
		"DATABASE_URL=" + dbtest.Seeded(t),
		"ADDR=127.0.0.1:0",
		"AUTH_SECRET=binary-test-secret-0123456789",
		"LOG_LEVEL=info",
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	logs := make(chan map[string]any, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				logs <- line
			}
		}
		close(logs)
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })

	addr := ""
	for addr == "" {
		select {
		case line, ok := <-logs:
			if !ok {
				t.Fatalf("exited before listening; stderr:\n%s", stderr.String())
			}
			if line["msg"] == "listening" {
				addr, _ = line["addr"].(string)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no \"listening\" log within 20 s")
		}
	}
	base := "http://" + addr

	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	post := func(token, query string, vars map[string]any) *gqlResponse {
		body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
		req, _ := http.NewRequest(http.MethodPost, base+"/graphql", bytes.NewReader(body))
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

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for line := range logs {
		msg, _ := line["msg"].(string)
		msgs = append(msgs, msg)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("still running 15 s after SIGTERM")
	}
	if got := strings.Join(msgs, ","); !strings.Contains(got, "shutting down,stopped") {
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
