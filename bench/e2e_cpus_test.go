package main_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"crudbench/bench/cpuset"
	"crudbench/bench/report"
	"crudbench/bench/results"
)

// TestIsolatedCPUs runs the bench with the apps on CPUs of their own and,
// stopping the runner (SIGSTOP) once it says everything is up, reads the
// CPUs of every process it started: each app (and its GOMAXPROCS, from
// its metrics), the postmaster and every one of its children, and every
// thread of the runner. The run then goes on, and its results.json and
// report must state the split.
func TestIsolatedCPUs(t *testing.T) {
	m, err := cpuset.ThisMachine()
	if err != nil {
		t.Fatal(err)
	}
	app, rest, ok := m.Split()
	if !ok {
		console, err := execBench(t, nil, "-validate-only", "-cpus", "auto")
		if err == nil || !strings.Contains(console, "needs at least 2 CPUs") {
			t.Errorf("-cpus auto on one CPU: %v, want an error saying it needs 2", err)
		}
		t.Skipf("the runner may use only CPU %s: nothing to split", m.Allowed)
	}
	split := fmt.Sprintf("app=%s,rest=%s", app, rest)
	out := t.TempDir()
	cmd := exec.Command(benchBinary(t), "-cpus", split, "-apps", "rest,graphql",
		"-scenarios", "read-one", "-rate", "read-one=20", "-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "1s", "-out", out)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	var console strings.Builder
	apps := map[string]int{}
	postmaster := 0
	started := regexp.MustCompile(`^Started (\S+) at \S+ \(pid (\d+)\)`)
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		line := sc.Text()
		console.WriteString(line + "\n")
		if m := started.FindStringSubmatch(line); m != nil {
			apps[m[1]], _ = strconv.Atoi(m[2])
		}
		if v, ok := strings.CutPrefix(line, "PostgreSQL is up (postmaster pid "); ok {
			postmaster, _ = strconv.Atoi(strings.TrimSuffix(v, ")."))
		}
		if strings.HasPrefix(line, "CPUs: ") {
			// Everything is up; freeze the runner so that nothing is torn
			// down while it is read.
			if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			checkProcessCPUs(t, cmd.Process.Pid, postmaster, apps, app, rest)
			if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, _ = io.Copy(io.Discard, pipe)
	err = cmd.Wait()
	t.Logf("bench output:\n%s", console.String())
	if err != nil {
		t.Fatalf("bench: %v", err)
	}
	if len(apps) != 2 || postmaster == 0 {
		t.Fatalf("the console named apps %v and postmaster %d, want two apps and a postmaster", apps, postmaster)
	}
	if want := fmt.Sprintf("The runner and its load generator run on CPUs %s (GOMAXPROCS %d).", rest, len(rest)); !strings.Contains(console.String(), want) {
		t.Errorf("the console does not say %q", want)
	}

	dir := onlyFolder(out)
	run := readRun(t, dir)
	want := results.CPUs{Isolated: true, Runner: rest.String(), Postgres: rest.String(),
		Apps: map[string]string{"rest": app.String(), "graphql": app.String()}, AppCores: len(app)}
	if got := run.Settings.CPUs; got == nil || fmt.Sprint(*got) != fmt.Sprint(want) {
		t.Errorf("settings.cpus = %+v, want %+v", got, want)
	}
	md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if line := fmt.Sprintf("| CPUs | isolated (-cpus app=…): apps %s; PostgreSQL %s; runner %s |", app, rest, rest); !strings.Contains(string(md), line) {
		t.Errorf("report.md lacks\n%s", line)
	}
}

// checkProcessCPUs checks that every app in apps (name → pid) may run on
// app only and has as many Ps as CPUs there, and that the postmaster, each
// of its children and every thread of the runner may run on rest only.
func checkProcessCPUs(t *testing.T, runner, postmaster int, apps map[string]int, app, rest cpuset.Set) {
	t.Helper()
	for name, pid := range apps {
		checkAllowed(t, name, pid, app)
		if got := gomaxprocs(t, pid); got != len(app) {
			t.Errorf("%s has GOMAXPROCS %d, want %d: its CPUs", name, got, len(app))
		}
	}
	checkAllowed(t, "the postmaster", postmaster, rest)
	children := childrenOf(t, postmaster)
	if len(children) == 0 {
		t.Error("the postmaster has no children: no backend to check")
	}
	for _, pid := range children {
		checkAllowed(t, "PostgreSQL process "+strconv.Itoa(pid), pid, rest)
	}
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", runner))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(task.Name())
		if got, err := cpuset.Thread(tid); err != nil || got.String() != rest.String() {
			t.Errorf("runner thread %d may run on CPUs %s (%v), want %s", tid, got, err, rest)
		}
	}
}

// checkAllowed checks Cpus_allowed_list of process pid.
func checkAllowed(t *testing.T, what string, pid int, want cpuset.Set) {
	t.Helper()
	if got, err := cpuset.Allowed(pid); err != nil || got.String() != want.String() {
		t.Errorf("%s (pid %d) may run on CPUs %s (%v), want %s", what, pid, got, err, want)
	}
}

// gomaxprocs reads an app's GOMAXPROCS from its metrics, found at the
// admin address its environment gives it (DEBUG_ADDR).
func gomaxprocs(t *testing.T, pid int) int {
	t.Helper()
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	addr := ""
	for kv := range strings.SplitSeq(string(environ), "\x00") {
		if v, ok := strings.CutPrefix(kv, "DEBUG_ADDR="); ok {
			addr = v
		}
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_sched_gomaxprocs_threads "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	t.Fatalf("the metrics at %s have no go_sched_gomaxprocs_threads", addr)
	return 0
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil { // gone meanwhile
			continue
		}
		// The parent is the second field after the command's closing ')'.
		fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}
