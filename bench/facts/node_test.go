package facts_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"crudbench/bench/facts"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

var (
	npmOnce sync.Once
	npmErr  error
)

// installed installs the Node workspace's dependencies (the repository
// root's package-lock.json) once per test binary in the real tree (its
// node_modules is ignored by git), as the runner's build step does.
func installed(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm not found on PATH: install Node.js 20 or newer with npm to measure the Node.js apps")
	}
	npmOnce.Do(func() {
		// The runner's own installer: it locks the lockfile, so the tests
		// of other packages installing at the same time wait.
		npmErr = stack.InstallNode(context.Background(), root, io.Discard)
	})
	if npmErr != nil {
		t.Fatalf("npm ci at the workspace root: %v", npmErr)
	}
}

// readJSON decodes the file name (relative to the module) into v.
func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	content, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(content, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// tracked lists the files git tracks under dir (relative to the module)
// whose names end with one of the suffixes (all of them without one).
func tracked(t *testing.T, dir string, suffixes ...string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "--", dir)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files %s: %v", dir, err)
	}
	var names []string
	for name := range strings.Lines(string(out)) {
		name = strings.TrimSpace(name)
		for _, s := range suffixes {
			if strings.HasSuffix(name, s) {
				names = append(names, name)
				break
			}
		}
		if len(suffixes) == 0 && name != "" {
			names = append(names, name)
		}
	}
	return names
}

// fileBytes sums the sizes of the named files (relative to the module).
func fileBytes(t *testing.T, names ...string) int64 {
	t.Helper()
	var n int64
	for _, name := range names {
		fi, err := os.Stat(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

// npmInstalled lists the packages npm ls finds that the workspace's
// package name needs at run time (its own view of the tree, dev
// dependencies left out, and peer dependencies: node-base's graphql and
// @graphql-tools/utils are optional peers, which an install of an app
// that does not depend on them leaves out), by install path relative to
// the module, and counts them, each name and version once.
func npmInstalled(t *testing.T, name string) ([]string, int) {
	t.Helper()
	cmd := exec.Command("npm", "ls", "--workspace", name, "--all", "--omit=dev", "--omit=peer", "--long", "--parseable")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("npm ls --workspace %s: %v", name, err)
	}
	var paths []string
	distinct := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		// path:name@version, and :realpath for a link to a package of
		// the workspace, which is code, not a package
		fields := strings.Split(strings.TrimSpace(line), ":")
		if len(fields) == 2 && strings.Contains(fields[0], string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
			abs, err := filepath.Abs(root)
			if err != nil {
				t.Fatal(err)
			}
			rel, err := filepath.Rel(abs, fields[0])
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(paths, rel) {
				paths = append(paths, rel)
			}
			distinct[fields[1]] = true
		}
	}
	return paths, len(distinct)
}

// packageBytes sums the sizes find reports for the regular files of the
// installed package in dir (relative to the module), its own node_modules
// left out (packages of their own).
func packageBytes(t *testing.T, dir string) int64 {
	t.Helper()
	full := filepath.Join(root, dir)
	out, err := exec.Command("find", full, "-path", filepath.Join(full, "node_modules"), "-prune", "-o", "-type", "f", "-printf", "%s\n").Output()
	if err != nil {
		t.Fatalf("find %s: %v", dir, err)
	}
	var n int64
	for line := range strings.Lines(string(out)) {
		size, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		n += size
	}
	return n
}

// nodeApps are the Node.js apps of the tree, with the files outside their
// folders that their code reads.
var nodeApps = []struct {
	app, frameworks string
	read            []string
}{
	{"express", "express pg", []string{"resources/openapi.yaml"}},
	{"yoga", "graphql-yoga graphql dataloader pg", []string{"apps/graphql/graph/*.graphqls"}},
	{"apollo", "express @apollo/server graphql dataloader pg", []string{"apps/graphql/graph/*.graphqls"}},
	{"mercurius", "fastify mercurius graphql pg", []string{"apps/graphql/graph/*.graphqls"}},
	// TypeScript, compiled by its build step into dist/; both platforms'
	// servers are in its closure.
	{"nest", "@nestjs/core express fastify pg", []string{"resources/openapi.yaml"}},
	// Both drivers, and both platforms, are in its closure.
	{"nest-graphql", "@nestjs/core @nestjs/graphql express fastify @apollo/server mercurius graphql dataloader pg", []string{"apps/graphql/graph/*.graphqls"}},
}

func TestMeasureNodeApps(t *testing.T) {
	for _, c := range nodeApps {
		t.Run(c.app, func(t *testing.T) {
			installed(t)
			if row, ok := stack.FindBuiltin(c.app); ok && row.BuildScript != "" {
				if err := stack.BuildNode(context.Background(), root, row, io.Discard); err != nil {
					t.Fatal(err)
				}
			}
			f, err := facts.MeasureNode(context.Background(), root, c.app)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", f)
			checkNodeApp(t, c.app, glob(t, c.read...), f)
			checkNodeFrameworks(t, c.app, c.frameworks, f)
		})
	}
}

// checkNodeApp checks the facts of apps/<app> against counts made here
// from git's, npm's and find's view of the same files.
func checkNodeApp(t *testing.T, app string, read []string, f results.StackFacts) {
	t.Helper()
	dir := "apps/" + app
	var pkg struct {
		Name         string
		Dependencies map[string]string
	}
	readJSON(t, dir+"/package.json", &pkg)
	// The workspace's own packages among the dependencies are links in
	// node_modules; the packages they and the app name are the direct ones.
	var localDirs []string
	direct := map[string]bool{}
	for name := range pkg.Dependencies {
		link, err := os.Readlink(filepath.Join(root, "node_modules", filepath.FromSlash(name)))
		if err != nil {
			direct[name] = true
			continue
		}
		local := filepath.ToSlash(filepath.Join("node_modules", filepath.Dir(filepath.FromSlash(name)), link))
		localDirs = append(localDirs, local)
		var lib struct{ Dependencies map[string]string }
		readJSON(t, local+"/package.json", &lib)
		for name := range lib.Dependencies {
			direct[name] = true
		}
	}
	if v := nodeVersion(t); f.App != app || f.Runtime != "Node.js" || f.RuntimeVersion != v {
		t.Errorf("App, Runtime, RuntimeVersion = %q, %q, %q, want %q, Node.js, %q", f.App, f.Runtime, f.RuntimeVersion, app, v)
	}
	if f.DirectModules != len(direct) {
		t.Errorf("DirectModules = %d, want the %d packages the dependencies of package.json and of %v name", f.DirectModules, len(direct), localDirs)
	}
	packages, total := npmInstalled(t, pkg.Name)
	if f.TotalModules != total {
		t.Errorf("TotalModules = %d, want the %d packages npm ls finds for the workspace %s", f.TotalModules, total, pkg.Name)
	}
	// The app's code is every script outside its tests (a bench script
	// too: Node.js ships the folder); node-base's test kit is test code,
	// and the files it reads test data. TypeScript is lines, but what a
	// deploy ships is what tsc compiled from it, dist/.
	code := func(d string) []string {
		var names []string
		for _, name := range tracked(t, d, ".js", ".ts") {
			if !strings.HasPrefix(name, d+"/test/") && !strings.HasPrefix(name, d+"/test-kit/") && !strings.Contains(name, ".test.") {
				names = append(names, name)
			}
		}
		return names
	}
	ownJS := code(dir)
	if want := nonBlank(t, ownJS...); f.Own.JS != want || want == 0 {
		t.Errorf("Own.JS = %d, want the %d non-blank lines of its code", f.Own.JS, want)
	}
	if want := nonBlank(t, tracked(t, dir+"/test", ".js", ".ts")...); f.Own.Tests != want || want == 0 {
		t.Errorf("Own.Tests = %d, want the %d non-blank lines of test", f.Own.Tests, want)
	}
	if want := nonBlank(t, tracked(t, dir+"/tsconfig.json")...); f.Own.Other != want {
		t.Errorf("Own.Other = %d, want the %d non-blank lines of the compiler's settings", f.Own.Other, want)
	}
	if f.Own.Go != 0 || f.Own.Generated != 0 {
		t.Errorf("Own = %+v: the folder holds code, tests, a README, npm's and tsc's files only", f.Own)
	}
	// What node runs ships; TypeScript (an app's sources, node-base's
	// declarations) is read by tsc only.
	run := func(names []string) []string {
		var js []string
		for _, name := range names {
			if !strings.HasSuffix(name, ".ts") {
				js = append(js, name)
			}
		}
		return js
	}
	shipped := append(append(append(run(ownJS), compiled(t, dir)...), dir+"/package.json"), read...)
	var sharedJS []string
	for _, d := range localDirs {
		sharedJS = append(sharedJS, code(d)...)
		shipped = append(shipped, d+"/package.json")
	}
	shipped = append(shipped, run(sharedJS)...)
	if want := nonBlank(t, sharedJS...); f.Shared.JS != want {
		t.Errorf("Shared.JS = %d, want the %d non-blank lines of the local packages' code %v", f.Shared.JS, want, localDirs)
	}
	if want := nonBlank(t, read...); f.Shared.Other != want {
		t.Errorf("Shared.Other = %d, want the %d lines of %v", f.Shared.Other, want, read)
	}
	// The packages are the app's own closure, not the hoisted
	// node_modules whole; the local packages ship from their folders.
	want := fileBytes(t, shipped...)
	for _, p := range packages {
		want += packageBytes(t, p)
	}
	if f.DeployedBytes != want {
		t.Errorf("DeployedBytes = %d, want the %d packages npm ls lists and the sources, %d", f.DeployedBytes, len(packages), want)
	}
}

// compiled lists the files of dir/dist (relative to the module), what
// its build step compiled, but its hidden ones (tsc's record of the
// build); none for an app without one.
func compiled(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(filepath.Join(root, dir, "dist"), func(name string, d os.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipAll
		}
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		rel, err := filepath.Rel(root, name)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// checkNodeFrameworks checks that f names the frameworks want, at the
// versions installed in the workspace's node_modules.
func checkNodeFrameworks(t *testing.T, app, want string, f results.StackFacts) {
	t.Helper()
	var names []string
	for _, fw := range f.Frameworks {
		names = append(names, fw.Name)
		var installed struct{ Version string }
		readJSON(t, "node_modules/"+fw.Name+"/package.json", &installed)
		if fw.Version != installed.Version {
			t.Errorf("framework %s %s, but node_modules holds %s", fw.Name, fw.Version, installed.Version)
		}
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Frameworks %v, want %s", f.Frameworks, want)
	}
}

// nodeVersion is the version node --version prints, without its v.
func nodeVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		t.Fatalf("node --version: %v: install Node.js 20 or newer", err)
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
}
