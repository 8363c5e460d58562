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

// appPackage is a Node app whose one dependency is a local package,
// installed as a copy (as apps/express depends on apps/node-base): npm
// installs it offline.
const (
	appPackage = `{"name": "app", "version": "1.0.0", "private": true, "dependencies": {"lib": "file:../lib"}}`
	libPackage = `{"name": "lib", "version": "1.0.0", "main": "index.js"}`
)

// TestInstallNode installs one folder from two callers at once, as the
// tests of two packages do under go test ./...: both succeed, and later
// calls find the install done without npm — until the lockfile or the
// local package's code changes.
func TestInstallNode(t *testing.T) {
	for _, cmd := range []string{"node", "npm"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Fatalf("%s not found: %s", cmd, stack.NodeInstall)
		}
	}
	root := t.TempDir()
	dir := filepath.Join(root, "app")
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/package.json", libPackage)
	write("lib/index.js", "module.exports = 1;\n")
	write("app/package.json", appPackage)
	write("app/.npmrc", "install-links=true\n")
	lock := exec.Command("npm", "install", "--package-lock-only", "--no-audit", "--no-fund")
	lock.Dir = dir
	if out, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("npm install --package-lock-only: %v\n%s", err, out)
	}

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

	check := exec.Command("node", "-e", "process.stdout.write(String(require('lib')))")
	check.Dir = dir
	if out, err := check.Output(); err != nil || string(out) != "1" {
		t.Fatalf("the app requires its local package: %q, %v; want 1", out, err)
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
	// New code in the local package asks for npm ci again, so does
	// another lockfile.
	write("lib/index.js", "module.exports = 2;\n")
	if err := stack.InstallNode(context.Background(), dir, io.Discard); err == nil || !strings.Contains(err.Error(), "npm") {
		t.Errorf("install after the local package changed, without npm: %v; want npm ci to be run (and fail)", err)
	}
	write("lib/index.js", "module.exports = 1;\n")
	if err := stack.InstallNode(context.Background(), dir, io.Discard); err != nil {
		t.Errorf("install with the local package as installed: %v; want nothing to do", err)
	}
	lockPath := filepath.Join(dir, "package-lock.json")
	content, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	write("app/package-lock.json", string(content)+"\n")
	if err := stack.InstallNode(context.Background(), dir, io.Discard); err == nil || !strings.Contains(err.Error(), "npm") {
		t.Errorf("install after the lockfile changed, without npm: %v; want npm ci to be run (and fail)", err)
	}
}
