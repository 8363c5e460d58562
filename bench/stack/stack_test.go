package stack_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/stack"
	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func TestParseAttach(t *testing.T) {
	got, err := stack.ParseAttach(" rest=http://localhost:8081/ , graphql=http://h:8082")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]string{"rest": "http://localhost:8081", "graphql": "http://h:8082"}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{"rest", "=http://x", "rest="} {
		if _, err := stack.ParseAttach(bad); err == nil {
			t.Errorf("ParseAttach(%q) accepted", bad)
		}
	}
}

func TestParsePIDs(t *testing.T) {
	got, err := stack.ParsePIDs("rest=12,htmx=345")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]int{"rest": 12, "htmx": 345}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{"rest", "rest=x", "rest=0", "rest=-3"} {
		if _, err := stack.ParsePIDs(bad); err == nil {
			t.Errorf("ParsePIDs(%q) accepted", bad)
		}
	}
}

// TestFindProcess starts a process under a name of its own and looks it up
// as attach mode does.
func TestFindProcess(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal("this test needs the sleep command (coreutils)")
	}
	name := fmt.Sprintf("cbfind%d", os.Getpid()%100000)
	bin := filepath.Join(t.TempDir(), name)
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := stack.FindProcess(name); err == nil || !strings.Contains(err.Error(), "no process named") {
		t.Errorf("before start: %v, want no process", err)
	}
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "30")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	first := start()
	pid, err := stack.FindProcess(name)
	if err != nil || pid != first.Process.Pid {
		t.Errorf("FindProcess = %d, %v; want %d", pid, err, first.Process.Pid)
	}
	if !stack.Alive(pid) {
		t.Errorf("Alive(%d) = false", pid)
	}
	start()
	if _, err := stack.FindProcess(name); err == nil || !strings.Contains(err.Error(), "-pid "+name+"=PID") {
		t.Errorf("two processes: %v, want a hint to use -pid", err)
	}
}

func TestStartAppThatExits(t *testing.T) {
	f, err := exec.LookPath("false")
	if err != nil {
		t.Fatal("this test needs the false command (coreutils)")
	}
	_, err = stack.StartApp(context.Background(), "rest", f, stack.AppConfig{DBMaxConns: 1, Log: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Errorf("StartApp of a binary that exits: %v", err)
	}
}

// TestStartApp starts the real REST app and checks what StartApp learns
// about it: where it serves pprof (and that the public port does not), how
// long it took to be ready and its memory at rest.
func TestStartApp(t *testing.T) {
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := stack.Build(t.Context(), root, dir, []string{"rest"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	dbURL := dbtest.Empty(t) // /readyz needs a database that answers, not data

	began := time.Now()
	p, err := stack.StartApp(t.Context(), "rest", filepath.Join(dir, "rest"), stack.AppConfig{
		DatabaseURL: dbURL, DBMaxConns: 2, AuthSecret: "stack-test-secret-0123456789", Log: io.Discard,
	})
	took := time.Since(began)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	t.Logf("ready after %s, idle RSS %.1f MB", p.Ready, float64(p.IdleRSSBytes)/1e6)

	if p.Ready <= 0 || p.Ready > took {
		t.Errorf("Ready = %s, want more than 0 and at most the %s StartApp took", p.Ready, took)
	}
	// A Go app with a database pool holds a few MB at rest, never a GB.
	if p.IdleRSSBytes < 1<<20 || p.IdleRSSBytes > 1<<30 {
		t.Errorf("IdleRSSBytes = %d, want between 1 MiB and 1 GiB", p.IdleRSSBytes)
	}
	u, err := url.Parse(p.DebugURL)
	if err != nil || u.Hostname() != "127.0.0.1" || p.DebugURL == p.URL {
		t.Errorf("DebugURL = %q (%v), want a loopback address of its own (URL %q)", p.DebugURL, err, p.URL)
	}
	for _, tt := range []struct {
		name, url string
		want      int
	}{
		{"admin address", p.DebugURL + "/debug/pprof/", http.StatusOK},
		{"public port", p.URL + "/debug/pprof/", http.StatusNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Get(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("GET %s: %d, want %d", tt.url, resp.StatusCode, tt.want)
			}
		})
	}
	if err := p.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
}

func TestBuildUnknownApp(t *testing.T) {
	root, err := stack.ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("ModuleRoot = %s without go.mod", root)
	}
	err = stack.Build(context.Background(), root, t.TempDir(), []string{"no-such-app"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no-such-app") {
		t.Errorf("Build of a missing app: %v", err)
	}
}
