// Package apptest holds what the Go apps' tests share: running an app's
// real binary the way an operator does (build it, start it with an
// environment, wait for its "listening" log line, talk HTTP to it, stop it
// with SIGTERM and check it exits cleanly), and the timing rules of the
// tests that stall the database under an app.
package apptest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Settings are the variables every app reads; Env drops them from the test
// process's environment so only the given ones apply.
var Settings = []string{"DATABASE_URL", "ADDR", "DB_MAX_CONNS", "LOG_LEVEL", "AUTH_SECRET", "TOKEN_TTL", "REQUEST_TIMEOUT", "DEBUG_ADDR", "METRICS_ADDR"}

// Build compiles the main package in the current folder (the test's own
// app) into a temporary folder and returns the binary's path.
func Build(t testing.TB, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the app for this test: %v", err)
	}
	bin := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Env is the test process's environment without the apps' settings, plus
// the given NAME=value settings.
func Env(settings ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(Settings, name) {
			env = append(env, kv)
		}
	}
	return append(env, settings...)
}

// Process is a running app binary.
type Process struct {
	// URL is the app's base address, from its "listening" log line.
	URL string
	// DebugURL is its admin address, from its "debug listening" log line;
	// empty unless it was started with DEBUG_ADDR.
	DebugURL string
	// MetricsURL is its metrics-only address, from its "metrics listening"
	// log line; empty unless it was started with METRICS_ADDR.
	MetricsURL string
	// Startup holds the log lines written up to and including "listening".
	Startup []map[string]any

	cmd    *exec.Cmd
	logs   chan map[string]any
	exited chan error
	stderr *Buffer
}

// Start runs bin with env (see Env), expects JSON log lines on stdout and
// waits up to 20 s for the one saying "listening". The process is killed
// when the test ends if it is still running.
func Start(t testing.TB, bin string, env []string) *Process {
	t.Helper()
	p := &Process{
		cmd:    exec.Command(bin),
		logs:   make(chan map[string]any, 100),
		exited: make(chan error, 1),
		stderr: &Buffer{},
	}
	p.cmd.Env = env
	p.cmd.Stderr = p.stderr
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var line map[string]any
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				line = map[string]any{"msg": "NOT JSON: " + sc.Text()}
			}
			p.logs <- line
		}
		close(p.logs)
		p.exited <- p.cmd.Wait()
	}()

	timeout := time.After(20 * time.Second)
	for p.URL == "" {
		select {
		case line, ok := <-p.logs:
			if !ok {
				t.Fatalf("the app exited before listening; stderr:\n%s", p.stderr)
			}
			if msg, _ := line["msg"].(string); strings.HasPrefix(msg, "NOT JSON: ") {
				t.Errorf("a log line is not JSON: %q", msg)
			}
			p.Startup = append(p.Startup, line)
			if addr, _ := line["addr"].(string); line["msg"] == "listening" && addr != "" {
				p.URL = "http://" + addr
			} else if line["msg"] == "debug listening" && addr != "" {
				p.DebugURL = "http://" + addr
			} else if line["msg"] == "metrics listening" && addr != "" {
				p.MetricsURL = "http://" + addr
			}
		case <-timeout:
			t.Fatalf("no \"listening\" log line within 20 s; stderr:\n%s", p.stderr)
		}
	}
	return p
}

// Stop sends SIGTERM, waits up to 15 s for the process to end, fails the
// test unless it exits with status 0, and returns the messages it logged
// after the signal.
func (p *Process) Stop(t testing.TB) []string {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	deadline := time.After(15 * time.Second)
	for {
		select {
		case line, ok := <-p.logs:
			if ok {
				msg, _ := line["msg"].(string)
				msgs = append(msgs, msg)
				continue
			}
			if err := <-p.exited; err != nil {
				t.Errorf("exit after SIGTERM: %v; stderr:\n%s", err, p.stderr)
			}
			return msgs
		case <-deadline:
			t.Fatalf("still running 15 s after SIGTERM; logged %q", msgs)
		}
	}
}

// Buffer collects what other goroutines write (a process's stderr, a
// server's log) for a test to read.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write implements io.Writer.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns all that was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
