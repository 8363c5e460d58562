package facts_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"crudbench/bench/facts"
	"crudbench/bench/results"
)

// tinyNodeTree is an npm workspace with a Node.js app whose counts are
// known line by line; the comment before each file says where it goes.
var tinyNodeTree = map[string]string{
	// the workspace: not the app's (its lockfile is every app's)
	"package.json": `{"name": "root", "private": true, "workspaces": ["apps/*"]}`,
	// the app's closure: a, its own copy of b (2.0.0), the app's own b
	// (2.1.0, nested in its folder), the local package's d, d's c and its
	// peer pg = 6 packages; d's optional e is not installed. Not the
	// app's: the local packages and their links, tester (a
	// devDependency), other and the b at the top (another app's), however
	// hoisted.
	"package-lock.json": `{"lockfileVersion": 3, "packages": {
		"": {"name": "root", "workspaces": ["apps/*"]},
		"apps/tiny": {"name": "tiny", "dependencies": {"a": "1.0.0", "b": "^2.0.0", "common": "0.1.0"}, "devDependencies": {"tester": "1.0.0"}},
		"apps/tiny/node_modules/b": {"version": "2.1.0"},
		"apps/common": {"name": "common", "version": "0.1.0", "dependencies": {"a": "1.0.0", "d": "4.0.0"}},
		"apps/another": {"name": "another", "dependencies": {"other": "9.9.9", "graphql-yoga": "5.0.0"}},
		"node_modules/tiny": {"resolved": "apps/tiny", "link": true},
		"node_modules/common": {"resolved": "apps/common", "link": true},
		"node_modules/another": {"resolved": "apps/another", "link": true},
		"node_modules/a": {"version": "1.0.0", "dependencies": {"b": "2.0.0"}},
		"node_modules/a/node_modules/b": {"version": "2.0.0"},
		"node_modules/b": {"version": "2.2.0"},
		"node_modules/c": {"version": "3.1.4"},
		"node_modules/d": {"version": "4.0.0", "dependencies": {"c": "^3.0.0"}, "optionalDependencies": {"e": "1.0.0"},
			"peerDependencies": {"pg": "8", "q": "1"}, "peerDependenciesMeta": {"q": {"optional": true}}},
		"node_modules/pg": {"version": "8.0.0"},
		"node_modules/other": {"version": "9.9.9", "dependencies": {"b": "2.2.0"}},
		"node_modules/graphql-yoga": {"version": "5.0.0"},
		"node_modules/tester": {"version": "1.0.0", "dev": true}
	}}`,
	// Own: not counted (npm's file), but shipped
	"apps/tiny/package.json": `{"name": "tiny", "dependencies": {"a": "1.0.0", "b": "^2.0.0", "common": "0.1.0"}, "devDependencies": {"tester": "1.0.0"}}`,
	// 3 Own.JS, naming one file and one folder of the tree outside it
	"apps/tiny/src/main.js": "import { a } from 'a';\n\nconst doc = new URL('../../../docs/api.yaml', import.meta.url);\nconst schema = new URL(\"../../schema/\", import.meta.url);\n",
	// 2 Own.JS, not shipped: TypeScript, which the build compiles into dist/
	"apps/tiny/src/lib/util.ts": "export const one = 1;\n\n\nexport const two = 2;\n",
	// 3 Own.Other, the compiler's settings, not shipped
	"apps/tiny/tsconfig.json": "{\n  \"compilerOptions\": { \"outDir\": \"dist\" }\n\n}\n",
	// shipped, no lines: the build's output; its hidden build cache neither
	"apps/tiny/dist/lib/util.js":  "export const one = 1;\nexport const two = 2;\n",
	"apps/tiny/dist/.tsbuildinfo": "{}\n",
	// 1 Own.Other
	"apps/tiny/src/page.html": "<p>hi</p>\n",
	// 3 Own.Tests, 1 Own.Tests, the fixture not counted
	"apps/tiny/test/main.test.js":   "import test from 'node:test';\n\ntest('x', () => {});\n// end\n",
	"apps/tiny/src/util.spec.js":    "// a test beside the code\n",
	"apps/tiny/test/fixture.json":   "{\"a\": 1}\n",
	"apps/tiny/README.md":           "# tiny\n",
	"apps/tiny/.eslintrc.js":        "module.exports = {};\n",
	"apps/tiny/node_modules/b/i.js": "b21\n",
	// the closure's packages, shipped
	"node_modules/a/i.js":                "x\n",
	"node_modules/a/node_modules/b/i.js": "xy\n",
	"node_modules/c/package.json":        "{}\n",
	"node_modules/d/lib/i.js":            "d\n",
	"node_modules/pg/i.js":               "pg\n",
	// not the app's
	"node_modules/b/i.js":             "b22 b22\n",
	"node_modules/other/i.js":         "other\n",
	"node_modules/graphql-yoga/i.js":  "yoga\n",
	"node_modules/tester/i.js":        "tester\n",
	"node_modules/.package-lock.json": "{}\n",
	"apps/another/package.json":       `{"name": "another", "dependencies": {"other": "9.9.9", "graphql-yoga": "5.0.0"}}`,
	"apps/another/index.js":           "export {};\n",
	// Shared: the local package, 2 Shared.JS, 1 Shared.Tests
	"apps/common/package.json":       `{"name": "common", "version": "0.1.0", "dependencies": {"a": "1.0.0", "d": "4.0.0"}}`,
	"apps/common/index.js":           "export const c = 1;\n\nexport const d = 2;\n",
	"apps/common/test/index.test.js": "// tested\n",
	// 2 Shared.Other (named by main.js), 3 Shared.Other (the folder's schema)
	"docs/api.yaml":            "openapi: 3.1.0\n\ninfo: {}\n",
	"apps/schema/a.graphqls":   "type Query {\n  a: Int\n}\n",
	"apps/schema/resolvers.go": "package schema\n",
	"apps/schema/unnamed.yaml": "not read\n",
}

// writeTree writes the files of tree under a new folder it returns, with
// npm's links to the workspace's packages.
func writeTree(t *testing.T, tree map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range tree {
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// npm links the workspace's packages into node_modules: their files
	// are counted from their folders, once.
	for _, app := range []string{"tiny", "common", "another"} {
		if err := os.Symlink("../apps/"+app, filepath.Join(root, "node_modules", app)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestMeasureNodeTinyTree(t *testing.T) {
	root := writeTree(t, tinyNodeTree)
	got, err := facts.MeasureNode(context.Background(), root, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	var shipped int64
	for _, name := range []string{"apps/tiny/package.json", "apps/tiny/src/main.js", "apps/tiny/dist/lib/util.js", "apps/tiny/src/page.html",
		"apps/tiny/node_modules/b/i.js", "node_modules/a/i.js", "node_modules/a/node_modules/b/i.js", "node_modules/c/package.json",
		"node_modules/d/lib/i.js", "node_modules/pg/i.js",
		"apps/common/package.json", "apps/common/index.js", "docs/api.yaml", "apps/schema/a.graphqls"} {
		shipped += int64(len(tinyNodeTree[name]))
	}
	want := results.StackFacts{
		App: "tiny", Runtime: "Node.js", RuntimeVersion: nodeVersion(t),
		Frameworks:    []results.Framework{{Name: "pg", Version: "8.0.0"}},
		Own:           results.Lines{JS: 3 + 2, Tests: 3 + 1, Other: 1 + 3},
		Shared:        results.Lines{JS: 2, Tests: 1, Other: 2 + 3},
		DirectModules: 3, // a, b and the local package's d
		TotalModules:  6,
		DeployedBytes: shipped,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MeasureNode = %+v\nwant          %+v", got, want)
	}
	tree, err := facts.NodeTree(root, "tiny")
	want.RuntimeVersion, want.DeployedBytes = "", 0
	if err != nil || !reflect.DeepEqual(tree, want) {
		t.Errorf("NodeTree = %+v, %v\nwant       %+v", tree, err, want)
	}
}

// A lockfile that is not the package.json files' is refused, saying what
// to run; so is a package of the closure that npm ci did not install.
func TestMeasureNodeStaleLockfile(t *testing.T) {
	for _, c := range []struct {
		name, file, content, want string
		remove                    string
	}{
		{"a dependency the lockfile lacks", "apps/common/package.json", `{"name": "common", "dependencies": {"a": "1.0.0", "zod": "4.0.0"}}`,
			"package-lock.json lacks zod, which apps/common/package.json depends on: run npm install at the repository root", ""},
		{"an app the lockfile lacks", "apps/new/package.json", `{"name": "new"}`,
			`package-lock.json has no entry "apps/new": run npm install at the repository root`, ""},
		{"a package not installed", "", "", "node_modules/d is not installed: install the workspace's packages with npm ci", "node_modules/d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := writeTree(t, tinyNodeTree)
			if c.file != "" {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, c.file)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, c.file), []byte(c.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.remove != "" {
				if err := os.RemoveAll(filepath.Join(root, c.remove)); err != nil {
					t.Fatal(err)
				}
			}
			app := "tiny"
			if strings.HasPrefix(c.file, "apps/new/") {
				app = "new"
			}
			_, err := facts.MeasureNode(context.Background(), root, app)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
}

func TestMeasureNodeErrors(t *testing.T) {
	installed(t)
	cases := []struct {
		name, app, want string
		path            string // PATH, when the case changes it
	}{
		{"a Go app", "rest", `no Node.js app "rest"`, ""},
		{"a path, not an app", "../apps/express", `no Node.js app "../apps/express"`, ""},
		{"node not found", "express", "node not found on PATH: install Node.js", t.TempDir()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.path != "" {
				t.Setenv("PATH", c.path)
			}
			_, err := facts.MeasureNode(context.Background(), root, c.app)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
}
