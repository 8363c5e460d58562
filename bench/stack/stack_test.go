package stack_test

import (
	"context"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/cpuset"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func TestParseAttach(t *testing.T) {
	got, err := stack.ParseAttach(" rest=http://localhost:8081/ , cand=graphql@http://h:8082, t=trpc@http://h:8095/, trpc=http://h:8096")
	if err != nil {
		t.Fatal(err)
	}
	want := []stack.Attached{
		{Name: "rest", Kind: scenario.KindREST, URL: "http://localhost:8081"}, {Name: "cand", Kind: scenario.KindGraphQL, URL: "http://h:8082"},
		{Name: "t", Kind: scenario.KindTRPC, URL: "http://h:8095"}, {Name: "trpc", Kind: scenario.KindTRPC, URL: "http://h:8096"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, bad := range []string{"rest", "=http://x", "rest=", "cand=http://x", "cand=rest@", "rest=graphql@http://x", "a b=rest@http://x"} {
		if _, err := stack.ParseAttach(bad); err == nil {
			t.Errorf("ParseAttach(%q) accepted", bad)
		}
	}
}

// TestBuiltin checks the table of built-in apps: names that can name
// files, one default per kind (Go's where a Go app serves the kind: the
// Node apps differ from it, so the default run stays Go's), packages that
// exist, and no row that changes what every app is given.
func TestBuiltin(t *testing.T) {
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	common := []string{"DATABASE_URL", "ADDR", "DEBUG_ADDR", "DB_MAX_CONNS", "AUTH_SECRET", "LOG_LEVEL", "REQUEST_TIMEOUT", "GOMAXPROCS"}
	defaults := map[scenario.Kind]string{}
	goKinds := map[scenario.Kind]bool{}
	for _, a := range stack.Builtin {
		goKinds[a.Kind] = goKinds[a.Kind] || a.Toolchain == stack.ToolchainGo
	}
	for _, a := range stack.Builtin {
		t.Run(a.Name, func(t *testing.T) {
			if err := stack.CheckName(a.Name); err != nil {
				t.Error(err)
			}
			if _, err := scenario.ParseKind(string(a.Kind)); err != nil {
				t.Error(err)
			}
			checkSources(t, root, a, goKinds[a.Kind])
			for _, kv := range slices.Concat(a.BuildEnv, a.RunEnv) {
				k, _, ok := strings.Cut(kv, "=")
				if !ok || k == "" || slices.Contains(common, k) {
					t.Errorf("environment %q: want KEY=VALUE, never one of %v", kv, common)
				}
			}
			if a.Difference == "" {
				if d, dup := defaults[a.Kind]; dup {
					t.Errorf("%s and %s are both the default of kind %s", d, a.Name, a.Kind)
				}
				defaults[a.Kind] = a.Name
			}
			if got, ok := stack.FindBuiltin(a.Name); !ok || got.Name != a.Name {
				t.Errorf("FindBuiltin(%q) = %+v, %v", a.Name, got, ok)
			}
		})
	}
	for _, k := range scenario.Kinds {
		if defaults[k] == "" {
			t.Errorf("kind %s has no default app", k)
		}
	}
	if d := cmp.Diff([]string{"rest", "graphql", "htmx"}, stack.DefaultNames()); d != "" {
		t.Errorf("default apps (-want +got):\n%s", d)
	}
}

// checkSources checks that the sources of row a are where it says: a Go
// main package, or a Node app's package.json and Main script (for an app
// with a build step, the script in package.json that builds Main), in a
// workspace whose lockfile is the repository root's. goKind says a Go app
// serves a's kind.
func checkSources(t *testing.T, root string, a stack.App, goKind bool) {
	t.Helper()
	dir := filepath.Join(root, "apps", a.Package)
	files := []string{"main.go"}
	switch {
	case a.Toolchain == stack.ToolchainNode:
		files = []string{"package.json", "../../package-lock.json"}
		if a.BuildScript == "" {
			files = append(files, a.Main)
		} else {
			checkBuildScript(t, filepath.Join(dir, "package.json"), a.BuildScript)
		}
		if a.Difference == "" && goKind {
			t.Errorf("a Node app is never the default of a kind a Go app serves: the default run measures Go's")
		}
	case a.Main != "" || a.Tree:
		t.Errorf("a Go app with Main %q, Tree %v: both are for Node apps", a.Main, a.Tree)
	}
	for _, f := range files {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.IsDir() || f == "" {
			t.Errorf("apps/%s has no file %q: %v", a.Package, f, err)
		}
	}
}

// checkBuildScript checks that the package.json at path has the script
// name, the build step that makes a row's Main.
func checkBuildScript(t *testing.T, path, name string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Scripts map[string]string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Scripts[name] == "" {
		t.Errorf("%s has no script %q (%v): the row's build step", path, name, err)
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
	// Longer than the 15 bytes the kernel keeps of a command name.
	name := fmt.Sprintf("cbfind%d-a-long-app-name", os.Getpid()%100000)
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
	_, err = stack.StartApp(context.Background(), stack.App{Name: "rest"}, f, stack.AppConfig{DBMaxConns: 1, Log: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Errorf("StartApp of a binary that exits: %v", err)
	}
}

// An app that exits before it is ready is reported with the end of its
// output; one that says its port was taken is started again on other
// ports, three times in all.
func TestStartAppSaysWhy(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	_, err := stack.StartApp(t.Context(), stack.App{Name: "rest"}, script("broken", "echo 'config: AUTH_SECRET is too short' >&2\nexit 2\n"), stack.AppConfig{DBMaxConns: 1})
	if err == nil || !strings.Contains(err.Error(), "exit status 2; its last output:\nconfig: AUTH_SECRET is too short") {
		t.Errorf("StartApp of an app that exits with a message: %v", err)
	}
	starts := filepath.Join(dir, "starts")
	taken := script("taken", "echo start >> "+starts+"\necho 'listen tcp 127.0.0.1:8081: bind: address already in use'\nexit 1\n")
	_, err = stack.StartApp(t.Context(), stack.App{Name: "rest"}, taken, stack.AppConfig{DBMaxConns: 1})
	if err == nil || !strings.Contains(err.Error(), "its port was taken") {
		t.Errorf("StartApp of an app whose port is taken: %v", err)
	}
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "start") != 3 {
		t.Errorf("an app whose port was taken started %d times, want 3", strings.Count(string(b), "start"))
	}
}

// TestStartApp builds the real REST app from a row of its own and starts
// it, and checks what StartApp learns about it: where it serves pprof (and
// that the public port does not), how long it took to be ready and its
// memory at rest; and that the row's build and run environment reached the
// binary and the process, without changing what every app is given.
func TestStartApp(t *testing.T) {
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	row := stack.App{Name: "rest-under-test", Kind: scenario.KindREST, Package: "rest",
		BuildEnv: []string{"CGO_ENABLED=0"}, RunEnv: []string{"GOGC=400", "DB_MAX_CONNS=99"}}
	if err := stack.Build(t.Context(), root, dir, []stack.App{row}, io.Discard); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, row.Name)
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(info.Settings, debug.BuildSetting{Key: "CGO_ENABLED", Value: "0"}) {
		t.Errorf("build settings %v, want CGO_ENABLED=0 from the row's BuildEnv", info.Settings)
	}
	dbURL := dbtest.Empty(t) // /readyz needs a database that answers, not data
	// The runner's own tuning must not reach an app.
	t.Setenv("GOMAXPROCS", "1")
	t.Setenv("REQUEST_TIMEOUT", "1s")
	t.Setenv("METRICS_ADDR", "127.0.0.1:0")

	allowed, err := cpuset.Allowed(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	one := cpuset.Of(allowed[len(allowed)-1])

	began := time.Now()
	p, err := stack.StartApp(t.Context(), row, bin, stack.AppConfig{
		DatabaseURL: dbURL, DBMaxConns: 2, AuthSecret: "stack-test-secret-0123456789", Log: io.Discard,
		CPUs: one,
	})
	took := time.Since(began)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	t.Logf("ready after %s, idle RSS %.1f MB", p.Ready, float64(p.IdleRSSBytes)/1e6)

	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.PID))
	if err != nil {
		t.Fatal(err)
	}
	vars := strings.Split(string(environ), "\x00")
	if !slices.Contains(vars, "GOGC=400") || !slices.Contains(vars, "DB_MAX_CONNS=2") || slices.Contains(vars, "DB_MAX_CONNS=99") {
		t.Errorf("the process has GOGC %v, DB_MAX_CONNS=2 %v, DB_MAX_CONNS=99 %v; want the row's GOGC and the common pool size",
			slices.Contains(vars, "GOGC=400"), slices.Contains(vars, "DB_MAX_CONNS=2"), slices.Contains(vars, "DB_MAX_CONNS=99"))
	}
	for _, v := range []string{"GOMAXPROCS=1", "REQUEST_TIMEOUT=1s", "METRICS_ADDR=127.0.0.1:0"} {
		if slices.Contains(vars, v) {
			t.Errorf("the process inherited %s from the runner", v)
		}
	}
	checkCPUs(t, p, one, allowed)
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
	for _, tt := range []struct {
		app  stack.App
		want string
	}{
		{stack.App{Name: "x", Package: "no-such-app"}, "build x: go build -o "},
		{stack.App{Name: "y", Toolchain: stack.ToolchainNode, Package: "no-such-app", Main: "src/main.js"}, "build y: apps/no-such-app has no package.json: it is no package of the Node workspace"},
	} {
		err = stack.Build(context.Background(), root, t.TempDir(), []stack.App{tt.app}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "no-such-app") {
			t.Errorf("Build of a missing app: %v, want an error saying %q", err, tt.want)
		}
	}
}

// checkCPUs checks that app p runs on cpus only, that Go sized its
// GOMAXPROCS to them from the start (go_sched_gomaxprocs_threads of its
// metrics), and that every thread of the test process kept its own CPUs
// (runner), the one that forked the app included.
func checkCPUs(t *testing.T, p *stack.Process, cpus, runner cpuset.Set) {
	t.Helper()
	if got, err := cpuset.Allowed(p.PID); err != nil || got.String() != cpus.String() {
		t.Errorf("the app may run on CPUs %s (%v), want %s", got, err, cpus)
	}
	resp, err := http.Get(p.DebugURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("go_sched_gomaxprocs_threads %d\n", len(cpus))
	if !strings.Contains(string(b), want) {
		i := strings.Index(string(b), "go_sched_gomaxprocs_threads ")
		t.Errorf("the app's metrics say %q, want %q", string(b)[max(i, 0):max(i, 0)+40], want)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		if got, err := cpuset.Thread(tid); err == nil && got.String() != runner.String() {
			t.Errorf("thread %d of the test process may run on CPUs %s after the start, want its own %s", tid, got, runner)
		}
	}
}
