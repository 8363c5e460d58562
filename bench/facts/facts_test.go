package facts_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"crudbench/bench/facts"
	"crudbench/bench/results"
)

// root is the crudbench module, two folders up from this package.
const root = "../.."

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// appBinaries builds the three Go HTTP apps once per test binary, into one folder
// the test binary removes when it ends, and returns that folder.
func appBinaries(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "facts-test-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "./apps/rest", "./apps/graphql", "./apps/htmx")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			t.Logf("go build: %s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build the apps: %v", buildErr)
	}
	return binDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// measureApps measures the three Go HTTP apps of the tree.
func measureApps(t *testing.T) map[string]results.StackFacts {
	t.Helper()
	dir := appBinaries(t)
	all := map[string]results.StackFacts{}
	for _, app := range []string{"rest", "graphql", "htmx"} {
		f, err := facts.Measure(context.Background(), root, app, filepath.Join(dir, app))
		if err != nil {
			t.Fatalf("Measure(%s): %v", app, err)
		}
		all[app] = f
	}
	return all
}

// nonBlank counts the lines of the named files (relative to the module)
// that hold more than white space.
func nonBlank(t *testing.T, names ...string) int {
	t.Helper()
	n := 0
	for _, name := range names {
		content, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(content)) {
			if strings.TrimSpace(line) != "" {
				n++
			}
		}
	}
	return n
}

// glob returns the files matching the patterns (relative to the module).
func glob(t *testing.T, patterns ...string) []string {
	t.Helper()
	var names []string
	for _, pattern := range patterns {
		found, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil || len(found) == 0 {
			t.Fatalf("glob %s: %v, %d files", pattern, err, len(found))
		}
		for _, f := range found {
			rel, _ := filepath.Rel(root, f)
			names = append(names, rel)
		}
	}
	return names
}

func TestMeasureApps(t *testing.T) {
	all := measureApps(t)
	for app, f := range all {
		t.Run(app, func(t *testing.T) {
			if f.App != app {
				t.Errorf("App = %q", f.App)
			}
			if f.Own.Go == 0 || f.Own.Tests == 0 || f.Shared.Go == 0 || f.Shared.Tests == 0 {
				t.Errorf("Own %+v, Shared %+v: an app and the data layer have hand-written code and tests", f.Own, f.Shared)
			}
			// sqlc's package is linked by every app and is the only
			// generated code outside the apps.
			if want := nonBlank(t, glob(t, "db/internal/sqlcdb/*.go")...); f.Shared.Generated != want {
				t.Errorf("Shared.Generated = %d, want the sqlc package's %d", f.Shared.Generated, want)
			}
			// Shared.Other: the migrations and the sqlc config and queries.
			if want := nonBlank(t, glob(t, "db/migrations/*.sql", "queries/*.sql", "sqlc.yaml")...); f.Shared.Other != want {
				t.Errorf("Shared.Other = %d, want %d", f.Shared.Other, want)
			}
			if f.DirectModules < 2 || f.TotalModules < f.DirectModules {
				t.Errorf("DirectModules = %d, TotalModules = %d: want at least pgx and a router or gqlgen, and no more direct than total", f.DirectModules, f.TotalModules)
			}
			fi, err := os.Stat(filepath.Join(appBinaries(t), app))
			if err != nil {
				t.Fatal(err)
			}
			if f.BinaryBytes != fi.Size() {
				t.Errorf("BinaryBytes = %d, want the file's size %d", f.BinaryBytes, fi.Size())
			}
		})
	}
	t.Run("rest has no generated code of its own", func(t *testing.T) {
		if g := all["rest"].Own.Generated; g != 0 {
			t.Errorf("Own.Generated = %d, want 0", g)
		}
		// The OpenAPI document is the REST app's own, though the
		// resources package embeds it.
		if got, want := all["rest"].Own.Other, nonBlank(t, "resources/openapi.yaml"); got != want {
			t.Errorf("Own.Other = %d, want the OpenAPI document's %d", got, want)
		}
	})
	t.Run("graphql's executor and models are generated", func(t *testing.T) {
		f := all["graphql"]
		if want := nonBlank(t, "apps/graphql/graph/generated/generated.go", "apps/graphql/graph/model/models_gen.go"); f.Own.Generated != want {
			t.Errorf("Own.Generated = %d, want %d", f.Own.Generated, want)
		}
		// The schema and config gqlgen reads, and GraphiQL's own page
		// and script; not the vendored, gzipped GraphiQL build.
		want := nonBlank(t, append(glob(t, "apps/graphql/graph/*.graphqls"),
			"apps/graphql/gqlgen.yml", "apps/graphql/graphiql/index.html", "apps/graphql/graphiql/app.js")...)
		if f.Own.Other != want {
			t.Errorf("Own.Other = %d, want %d", f.Own.Other, want)
		}
	})
	t.Run("htmx counts its templates, templ components and CSS, not the vendored htmx", func(t *testing.T) {
		want := nonBlank(t, append(glob(t, "resources/templates/*.html", "resources/templates/pages/*.html", "apps/htmx/*.templ"), "resources/static/site.css")...)
		if got := all["htmx"].Own.Other; got != want {
			t.Errorf("Own.Other = %d, want %d", got, want)
		}
		if nonBlank(t, glob(t, "resources/static/htmx-*.min.js")...) == 0 {
			t.Error("the vendored htmx has no lines: the case above would not see it counted")
		}
	})
	t.Run("rest links htmx's shared packages and the REST transport's two", func(t *testing.T) {
		// rest shares its body decoding and problem answers with the amqp
		// app (httpproblem, jsonbody); everything else it links, htmx
		// links too, so its Shared is htmx's and those two packages' lines.
		extra := []string{"crudbench/apps/internal/httpproblem", "crudbench/apps/internal/jsonbody"}
		want := strings.Fields(shared(t, "htmx") + " " + strings.Join(extra, " "))
		slices.Sort(want)
		if got := shared(t, "rest"); got != strings.Join(want, " ") {
			t.Fatalf("rest links %s, want htmx's shared packages and %v", got, extra)
		}
		files := glob(t, "apps/internal/httpproblem/*.go", "apps/internal/jsonbody/*.go")
		files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
		expect := all["htmx"].Shared
		expect.Go += nonBlank(t, files...)
		if got := all["rest"].Shared; got != expect {
			t.Errorf("Shared: rest %+v, want htmx's %+v with the two packages' %d Go lines", got, all["htmx"].Shared, expect.Go-all["htmx"].Shared.Go)
		}
	})
}

// checkGoRuntime checks that f names the Go that built the binaries and
// the frameworks of the names want, at the versions go list -m selects.
func checkGoRuntime(t *testing.T, f results.StackFacts, want string) {
	t.Helper()
	goVersion := goCommand(t, "env", "GOVERSION")
	if f.Runtime != "Go" || "go"+f.RuntimeVersion != goVersion {
		t.Errorf("%s: Runtime %q %q, want Go %s", f.App, f.Runtime, f.RuntimeVersion, goVersion)
	}
	modules := map[string]string{
		"chi": "github.com/go-chi/chi/v5", "gqlgen": "github.com/99designs/gqlgen", "gqlparser": "github.com/vektah/gqlparser/v2",
		"dataloadgen": "github.com/vikstrous/dataloadgen", "templ": "github.com/a-h/templ", "pgx": "github.com/jackc/pgx/v5",
	}
	var names []string
	for _, fw := range f.Frameworks {
		names = append(names, fw.Name)
		if v := goCommand(t, "list", "-m", "-f", "{{.Version}}", modules[fw.Name]); "v"+fw.Version != v {
			t.Errorf("%s: %s %s, want %s", f.App, fw.Name, fw.Version, v)
		}
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("%s: Frameworks %v, want %s", f.App, f.Frameworks, want)
	}
}

// goCommand runs go with args in the module and returns its output, trimmed.
func goCommand(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// shared lists the crudbench packages outside apps/<app> that the app
// links, sorted.
func shared(t *testing.T, app string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.ImportPath}}{{end}}{{end}}", "./apps/"+app)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for p := range strings.Lines(string(out)) {
		p = strings.TrimSpace(p)
		if p != "" && p != "crudbench/apps/"+app && !strings.HasPrefix(p, "crudbench/apps/"+app+"/") {
			pkgs = append(pkgs, p)
		}
	}
	// go list prints them in an order of its import graph, which differs
	// between apps that import the same set in other orders.
	slices.Sort(pkgs)
	return strings.Join(pkgs, " ")
}

// Binary alone reads what the binary holds, the same as Measure does with
// the tree, and nothing that needs the tree: its size, modules, Go version
// and frameworks.
func TestBinary(t *testing.T) {
	all := measureApps(t)
	for app, want := range map[string]string{"rest": "chi pgx", "graphql": "chi gqlgen gqlparser dataloadgen pgx", "htmx": "chi templ pgx"} {
		checkGoRuntime(t, all[app], want)
	}
	for _, app := range []string{"rest", "graphql", "htmx"} {
		f, err := facts.Binary(filepath.Join(appBinaries(t), app))
		if err != nil {
			t.Fatal(err)
		}
		want := results.StackFacts{TotalModules: all[app].TotalModules, BinaryBytes: all[app].BinaryBytes,
			Runtime: all[app].Runtime, RuntimeVersion: all[app].RuntimeVersion, Frameworks: all[app].Frameworks}
		if !reflect.DeepEqual(f, want) {
			t.Errorf("%s: Binary = %+v, want %+v", app, f, want)
		}
	}
	if _, err := facts.Binary(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Binary of a missing file: no error")
	}
}

func TestMeasureErrors(t *testing.T) {
	dir := appBinaries(t)
	cases := []struct {
		name, app, bin, want string
	}{
		{"app not in the tree", "soap", filepath.Join(dir, "rest"), `no app "soap"`},
		{"a path, not an app", "../db", filepath.Join(dir, "rest"), `no app "../db"`},
		{"binary missing", "rest", filepath.Join(t.TempDir(), "rest"), "read the binary of rest"},
		{"not a Go binary", "rest", filepath.Join(root, "go.mod"), "build info"},
		{"another app's binary", "graphql", filepath.Join(dir, "rest"), "binary of crudbench/apps/rest, not of crudbench/apps/graphql"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := facts.Measure(context.Background(), root, c.app, c.bin)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
	t.Run("go not found", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := facts.Measure(context.Background(), root, "rest", filepath.Join(dir, "rest"))
		if err == nil || !strings.Contains(err.Error(), "go not found") {
			t.Errorf("err = %v, want one saying go was not found", err)
		}
	})
}
