package stack_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"crudbench/bench/stack"
)

// emptyPackage is a Node package without dependencies and its lockfile:
// npm ci installs it offline.
const (
	emptyPackage = `{"name": "empty", "version": "1.0.0", "private": true}`
	emptyLock    = `{"name": "empty", "version": "1.0.0", "lockfileVersion": 3, "requires": true,
  "packages": {"": {"name": "empty", "version": "1.0.0"}}}`
)

// TestInstallNode installs one folder from two callers at once, as the
// tests of two packages do under go test ./...: both succeed, and later
// calls find the install done without npm — until the lockfile changes.
func TestInstallNode(t *testing.T) {
	for _, cmd := range []string{"node", "npm"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Fatalf("%s not found: %s", cmd, stack.NodeInstall)
		}
	}
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", emptyPackage)
	write("package-lock.json", emptyLock)

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { errs[i] = stack.InstallNode(t.Context(), dir, io.Discard) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("install %d: %v", i, err)
		}
	}

	// Without npm on PATH (node alone), an install that is done needs none.
	node, _ := exec.LookPath("node")
	bin := t.TempDir()
	if err := os.Symlink(node, filepath.Join(bin, "node")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if err := stack.InstallNode(context.Background(), dir, io.Discard); err != nil {
		t.Errorf("install again, done already: %v; want nothing to do", err)
	}
	// Another lockfile asks for npm ci again.
	write("package-lock.json", strings.Replace(emptyLock, `"requires": true`, `"requires": false`, 1))
	if err := stack.InstallNode(context.Background(), dir, io.Discard); err == nil || !strings.Contains(err.Error(), "npm") {
		t.Errorf("install after the lockfile changed, without npm: %v; want npm ci to be run (and fail)", err)
	}
}
