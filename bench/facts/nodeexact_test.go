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

// tinyNodeTree is a tree with a Node.js app whose counts are known line
// by line; the comment before each file says where it goes.
var tinyNodeTree = map[string]string{
	// Own: not counted (npm's files), but shipped
	"apps/tiny/package.json": `{"name": "tiny", "dependencies": {"a": "1.0.0", "b": "^2.0.0", "common": "file:../common"}, "devDependencies": {"tester": "1.0.0"}}`,
	// the root, the local package and its link are not packages; b@2.0.0
	// is installed twice but is one package, and tester is the tests':
	// a, b, c, pg = 4
	"apps/tiny/package-lock.json": `{"lockfileVersion": 3, "packages": {
		"": {"name": "tiny"},
		"../common": {"name": "common", "version": "0.1.0"},
		"node_modules/common": {"resolved": "../common", "link": true},
		"node_modules/a": {"version": "1.0.0"},
		"node_modules/b": {"version": "2.0.0"},
		"node_modules/a/node_modules/b": {"version": "2.0.0"},
		"node_modules/c": {"version": "3.1.4"},
		"node_modules/pg": {"version": "8.0.0"},
		"node_modules/tester": {"version": "1.0.0", "dev": true}
	}}`,
	// 3 Own.JS, naming one file and one folder of the tree outside it
	"apps/tiny/src/main.js": "import { a } from 'a';\n\nconst doc = new URL('../../../docs/api.yaml', import.meta.url);\nconst schema = new URL(\"../../schema/\", import.meta.url);\n",
	// 2 Own.JS
	"apps/tiny/src/lib/util.ts": "export const one = 1;\n\n\nexport const two = 2;\n",
	// 1 Own.Other
	"apps/tiny/src/page.html": "<p>hi</p>\n",
	// 3 Own.Tests, 1 Own.Tests, the fixture not counted
	"apps/tiny/test/main.test.js":     "import test from 'node:test';\n\ntest('x', () => {});\n// end\n",
	"apps/tiny/src/util.spec.js":      "// a test beside the code\n",
	"apps/tiny/test/fixture.json":     "{\"a\": 1}\n",
	"apps/tiny/README.md":             "# tiny\n",
	"apps/tiny/.eslintrc.js":          "module.exports = {};\n",
	"apps/tiny/node_modules/a/i.js":   "x\n",
	"apps/tiny/node_modules/b/i.js":   "xy\n",
	"apps/tiny/node_modules/.pl.json": "{}\n",
	// Shared: the local package, 2 Shared.JS, 1 Shared.Tests
	"apps/common/package.json":       `{"name": "common", "dependencies": {"a": "1.0.0", "d": "4.0.0"}}`,
	"apps/common/index.js":           "export const c = 1;\n\nexport const d = 2;\n",
	"apps/common/test/index.test.js": "// tested\n",
	// 2 Shared.Other (named by main.js), 3 Shared.Other (the folder's schema)
	"docs/api.yaml":            "openapi: 3.1.0\n\ninfo: {}\n",
	"apps/schema/a.graphqls":   "type Query {\n  a: Int\n}\n",
	"apps/schema/resolvers.go": "package schema\n",
	"apps/schema/unnamed.yaml": "not read\n",
}

func TestMeasureNodeTinyTree(t *testing.T) {
	root := t.TempDir()
	for name, content := range tinyNodeTree {
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// npm links a local package into node_modules: its files are counted
	// from its folder, once.
	if err := os.Symlink("../../common", filepath.Join(root, "apps/tiny/node_modules/common")); err != nil {
		t.Fatal(err)
	}
	got, err := facts.MeasureNode(context.Background(), root, "tiny")
	if err != nil {
		t.Fatal(err)
	}
	var shipped int64
	for _, name := range []string{"package.json", "package-lock.json", "src/main.js", "src/lib/util.ts", "src/page.html",
		"node_modules/a/i.js", "node_modules/b/i.js", "node_modules/.pl.json",
		"../common/package.json", "../common/index.js", "../../docs/api.yaml", "../schema/a.graphqls"} {
		shipped += int64(len(tinyNodeTree[filepath.ToSlash(filepath.Clean("apps/tiny/"+name))]))
	}
	want := results.StackFacts{
		App: "tiny", Runtime: "Node.js", RuntimeVersion: nodeVersion(t),
		Frameworks:    []results.Framework{{Name: "pg", Version: "8.0.0"}},
		Own:           results.Lines{JS: 3 + 2, Tests: 3 + 1, Other: 1},
		Shared:        results.Lines{JS: 2, Tests: 1, Other: 2 + 3},
		DirectModules: 3, // a, b and the local package's d
		TotalModules:  4,
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

func TestMeasureNodeErrors(t *testing.T) {
	installed(t, "express")
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
