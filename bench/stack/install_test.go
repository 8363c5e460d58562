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

// A tiny npm workspace, as the repository's root is for apps/*: an app
// whose one dependency is another package of the workspace (as
// apps/express depends on apps/node-base), which npm links, offline.
const (
	rootPackage = `{"name": "root", "version": "1.0.0", "private": true, "workspaces": ["apps/*"]}`
	appPackage  = `{"name": "app", "version": "1.0.0", "private": true, "dependencies": {"lib": "1.0.0"}}`
	libPackage  = `{"name": "lib", "version": "1.0.0", "main": "index.js"}`
)

// TestInstallNode installs one workspace from two callers at once, as the
// tests of two packages do under go test ./...: both succeed, and later
// calls find the install done without npm — until the lockfile changes;
// new code in a package of the workspace needs no install, for the app
// requires it through a link.
func TestInstallNode(t *testing.T) {
	for _, cmd := range []string{"node", "npm"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Fatalf("%s not found: %s", cmd, stack.NodeInstall)
		}
	}
	root := t.TempDir()
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
	write("package.json", rootPackage)
	write("apps/lib/package.json", libPackage)
	write("apps/lib/index.js", "module.exports = 1;\n")
	write("apps/app/package.json", appPackage)
	write("apps/go-app/main.go", "package main\n") // a folder without package.json is no package
	lock := exec.Command("npm", "install", "--package-lock-only", "--no-audit", "--no-fund")
	lock.Dir = root
	if out, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("npm install --package-lock-only: %v\n%s", err, out)
	}

	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { errs[i] = stack.InstallNode(t.Context(), root, io.Discard) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("install %d: %v", i, err)
		}
	}

	requireLib := func() string {
		t.Helper()
		check := exec.Command("node", "-e", "process.stdout.write(String(require('lib')))")
		check.Dir = filepath.Join(root, "apps", "app")
		out, err := check.Output()
		if err != nil {
			t.Fatalf("the app requires its workspace's package: %v", err)
		}
		return string(out)
	}
	if got := requireLib(); got != "1" {
		t.Fatalf("the app requires its workspace's package: %q, want 1", got)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", "go-app")); err == nil {
		t.Errorf("node_modules/go-app exists: a folder without package.json was taken for a package")
	}

	// Without npm on PATH (node alone), an install that is done needs none.
	node, _ := exec.LookPath("node")
	bin := t.TempDir()
	if err := os.Symlink(node, filepath.Join(bin, "node")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if err := stack.InstallNode(context.Background(), root, io.Discard); err != nil {
		t.Errorf("install again, done already: %v; want nothing to do", err)
	}
	// New code in the workspace's package is what the app runs, with no
	// install; another lockfile asks for npm ci again, and says npm is missing.
	write("apps/lib/index.js", "module.exports = 2;\n")
	if err := stack.InstallNode(context.Background(), root, io.Discard); err != nil {
		t.Errorf("install after the workspace's package changed: %v; want nothing to do", err)
	}
	if got := requireLib(); got != "2" {
		t.Errorf("the app requires %q after its workspace's package changed, want 2", got)
	}
	lockPath := filepath.Join(root, "package-lock.json")
	content, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	write("package-lock.json", string(content)+"\n")
	if err := stack.InstallNode(context.Background(), root, io.Discard); err == nil || !strings.Contains(err.Error(), "npm not found on PATH: install Node.js") {
		t.Errorf("install after the lockfile changed, without npm: %v; want npm ci to be needed, and npm said missing", err)
	}
}

// TestBuildNodeScript builds two rows of one package with a build step,
// as nest and nest-fastify are: npm ci, then the package's script once,
// in its folder, and a link per row; a script that fails fails the build,
// naming the app, the command and what it printed.
func TestBuildNodeScript(t *testing.T) {
	for _, cmd := range []string{"node", "npm"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Fatalf("%s not found: %s", cmd, stack.NodeInstall)
		}
	}
	root := t.TempDir()
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
	write("package.json", rootPackage)
	// The build appends a line to dist/built.txt: one line, one run.
	write("apps/app/package.json", `{"name": "app", "version": "1.0.0", "private": true,
		"scripts": {"build": "node build.js", "broken": "node -e \"console.error('tsc: an error'); process.exit(2)\""}}`)
	write("apps/app/build.js", "const fs = require('node:fs');\nfs.mkdirSync('dist', { recursive: true });\nfs.appendFileSync('dist/built.txt', 'built\\n');\n")
	lock := exec.Command("npm", "install", "--package-lock-only", "--no-audit", "--no-fund")
	lock.Dir = root
	if out, err := lock.CombinedOutput(); err != nil {
		t.Fatalf("npm install --package-lock-only: %v\n%s", err, out)
	}
	rows := []stack.App{
		{Name: "one", Toolchain: stack.ToolchainNode, Package: "app", Main: "dist/main.js", BuildScript: "build"},
		{Name: "two", Toolchain: stack.ToolchainNode, Package: "app", Main: "dist/main.js", BuildScript: "build", RunEnv: []string{"X=1"}},
	}
	dir := t.TempDir()
	if err := stack.Build(t.Context(), root, dir, rows, io.Discard); err != nil {
		t.Fatalf("Build: %v", err)
	}
	for _, r := range rows {
		got, err := os.ReadFile(filepath.Join(dir, r.Name, "dist", "built.txt"))
		if err != nil || string(got) != "built\n" {
			t.Errorf("%s/dist/built.txt = %q, %v; want the build run once, in the package's folder", r.Name, got, err)
		}
	}

	broken := stack.App{Name: "three", Toolchain: stack.ToolchainNode, Package: "app", Main: "dist/main.js", BuildScript: "broken"}
	err := stack.Build(t.Context(), root, t.TempDir(), []stack.App{broken}, io.Discard)
	for _, want := range []string{"build three: ", "npm run broken --workspace apps/app", "tsc: an error"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Build with a failing script: %v, want an error saying %q", err, want)
		}
	}
}
