package facts_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"crudbench/bench/facts"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

var (
	npmOnce sync.Map // app -> *sync.Once
	npmErr  sync.Map // app -> error
)

// installed installs apps/<app>'s dependencies once per test binary in
// the real folder (its node_modules is ignored by git), as the runner's
// build step does.
func installed(t *testing.T, app string) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm not found on PATH: install Node.js 20 or newer with npm to measure the Node.js apps")
	}
	once, _ := npmOnce.LoadOrStore(app, new(sync.Once))
	once.(*sync.Once).Do(func() {
		// The runner's own installer: it locks the folder, so the tests of
		// other packages installing there at the same time wait.
		if err := stack.InstallNode(context.Background(), filepath.Join(root, "apps", app), io.Discard); err != nil {
			npmErr.Store(app, err)
		}
	})
	if err, ok := npmErr.Load(app); ok {
		t.Fatalf("npm ci in apps/%s: %v", app, err)
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

// findBytes sums the sizes find reports for the regular files under dir.
func findBytes(t *testing.T, dir string) int64 {
	t.Helper()
	out, err := exec.Command("find", filepath.Join(root, dir), "-type", "f", "-printf", "%s\n").Output()
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

// npmInstalled counts the packages npm ls finds installed under the app's
// node_modules (its own view of the tree), each name and version once.
func npmInstalled(t *testing.T, app string) int {
	t.Helper()
	cmd := exec.Command("npm", "ls", "--all", "--long", "--parseable")
	cmd.Dir = filepath.Join(root, "apps", app)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("npm ls in apps/%s: %v", app, err)
	}
	distinct := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		// path:name@version, and :realpath for a link to a local
		// package, which is code, not a package
		fields := strings.Split(strings.TrimSpace(line), ":")
		if len(fields) == 2 && strings.Contains(fields[0], string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
			distinct[fields[1]] = true
		}
	}
	return len(distinct)
}

// nodeApps are the Node.js apps of the tree, with the files outside their
// folders that their code reads.
var nodeApps = []struct {
	app, frameworks string
	read            []string
}{
	{"express", "express pg", []string{"resources/openapi.yaml"}},
	{"yoga", "graphql-yoga graphql dataloader pg", []string{"apps/graphql/graph/*.graphqls"}},
}

func TestMeasureNodeApps(t *testing.T) {
	for _, c := range nodeApps {
		t.Run(c.app, func(t *testing.T) {
			installed(t, c.app)
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
	var pkg struct{ Dependencies map[string]string }
	readJSON(t, dir+"/package.json", &pkg)
	var localDirs []string
	direct := 0
	for _, spec := range pkg.Dependencies {
		if p, ok := strings.CutPrefix(spec, "file:"); ok {
			localDirs = append(localDirs, filepath.ToSlash(filepath.Join(dir, p)))
		} else {
			direct++
		}
	}
	if v := nodeVersion(t); f.App != app || f.Runtime != "Node.js" || f.RuntimeVersion != v {
		t.Errorf("App, Runtime, RuntimeVersion = %q, %q, %q, want %q, Node.js, %q", f.App, f.Runtime, f.RuntimeVersion, app, v)
	}
	if len(localDirs) == 0 && f.DirectModules != direct {
		t.Errorf("DirectModules = %d, want package.json's %d dependencies", f.DirectModules, direct)
	}
	if want := npmInstalled(t, app); f.TotalModules != want {
		t.Errorf("TotalModules = %d, want the %d packages npm ls finds", f.TotalModules, want)
	}
	ownJS := tracked(t, dir+"/src", ".js", ".ts")
	if want := nonBlank(t, ownJS...); f.Own.JS != want || want == 0 {
		t.Errorf("Own.JS = %d, want the %d non-blank lines of src", f.Own.JS, want)
	}
	if want := nonBlank(t, tracked(t, dir+"/test", ".js", ".ts")...); f.Own.Tests != want || want == 0 {
		t.Errorf("Own.Tests = %d, want the %d non-blank lines of test", f.Own.Tests, want)
	}
	if f.Own.Go != 0 || f.Own.Generated != 0 || f.Own.Other != 0 {
		t.Errorf("Own = %+v: the folder holds code, tests, a README and npm's files only", f.Own)
	}
	var sharedJS []string
	for _, d := range localDirs {
		for _, name := range tracked(t, d, ".js", ".ts") {
			if !strings.HasPrefix(name, d+"/test/") && !strings.Contains(name, ".test.") {
				sharedJS = append(sharedJS, name)
			}
		}
	}
	if want := nonBlank(t, sharedJS...); f.Shared.JS != want {
		t.Errorf("Shared.JS = %d, want the %d non-blank lines of the local packages' code %v", f.Shared.JS, want, localDirs)
	}
	if want := nonBlank(t, read...); f.Shared.Other != want {
		t.Errorf("Shared.Other = %d, want the %d lines of %v", f.Shared.Other, want, read)
	}
	// The local packages are in node_modules as copies (install-links):
	// their folders are not deployed again.
	shipped := append(append(tracked(t, dir+"/src"), dir+"/package.json", dir+"/package-lock.json"), read...)
	want := findBytes(t, dir+"/node_modules")
	if want += fileBytes(t, shipped...); f.DeployedBytes != want {
		t.Errorf("DeployedBytes = %d, want the app's node_modules and its sources, %d", f.DeployedBytes, want)
	}
}

// checkNodeFrameworks checks that f names the frameworks want, at the
// versions installed in apps/<app>/node_modules.
func checkNodeFrameworks(t *testing.T, app, want string, f results.StackFacts) {
	t.Helper()
	var names []string
	for _, fw := range f.Frameworks {
		names = append(names, fw.Name)
		var installed struct{ Version string }
		readJSON(t, "apps/"+app+"/node_modules/"+fw.Name+"/package.json", &installed)
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
