package main_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"crudbench/bench/results"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchBin != "" {
		os.RemoveAll(filepath.Dir(benchBin))
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	benchBin  string
	buildErr  error
)

// runBench runs the bench with args and the extra environment, and returns
// the results.json it wrote, its folder and the console output.
func runBench(t *testing.T, env []string, args ...string) (*results.Run, string, string) {
	t.Helper()
	out := t.TempDir()
	console, err := execBench(t, env, append(args, "-out", out)...)
	if err != nil {
		t.Fatalf("bench: %v", err)
	}
	dir := onlyFolder(out)
	return readRun(t, dir), dir, console
}

// execBench builds the bench (once), runs it with args and the extra
// environment, and returns its console output and how it exited.
func execBench(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(benchBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	console, err := cmd.CombinedOutput()
	t.Logf("bench output:\n%s", console)
	return string(console), err
}

// benchBinary builds the bench once and returns its path.
func benchBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "crudbench-bench-test-")
		if err != nil {
			buildErr = err
			return
		}
		benchBin = filepath.Join(dir, "bench")
		if out, err := exec.Command("go", "build", "-o", benchBin, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./bench: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return benchBin
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n
}

// onlyFolder is the one results folder a run made under out, "" when
// there is none.
func onlyFolder(out string) string {
	files, _ := filepath.Glob(filepath.Join(out, "*", results.JSONFile))
	if len(files) != 1 {
		return ""
	}
	return filepath.Dir(files[0])
}

// readRun reads the results.json of a results folder.
func readRun(t *testing.T, dir string) *results.Run {
	t.Helper()
	if dir == "" {
		t.Fatal("no results folder")
	}
	run, err := results.Read(filepath.Join(dir, results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	return run
}
