package facts

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"crudbench/bench/results"
)

// nodeFiles counts the files of a Node.js app's folders, each once, and
// lists those a deploy ships.
type nodeFiles struct {
	root string
	// dirs are the folders counted: the app's first, then its local
	// packages'.
	dirs    []string
	counted map[string]bool
	// shipped are the files counted outside tests, with the package
	// files; node_modules is summed apart.
	shipped []string
	// referenced are the paths that code names by new URL(…,
	// import.meta.url), resolved.
	referenced []string
}

// scriptExts are the extensions of JavaScript and TypeScript files.
var scriptExts = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"}

// typeScriptExts are the extensions of TypeScript sources: lines a team
// writes, which node does not run; the build step compiles them into
// buildOutput, and a deploy ships that.
var typeScriptExts = []string{".ts", ".mts", ".cts", ".tsx"}

// buildOutput is the folder of a package that its build step (the
// runner's BuildScript: tsc) writes: shipped, but no lines, as a Go
// app's binary is not its lines.
const buildOutput = "dist"

// isBuildConfig reports whether base is the TypeScript compiler's
// settings (tsconfig.json, tsconfig.build.json): lines a team writes,
// which the build reads and a deploy does not ship.
func isBuildConfig(base string) bool {
	return strings.HasPrefix(base, "tsconfig.") && strings.HasSuffix(base, ".json")
}

// testDirs are the folder names that hold a package's tests (test-kit:
// node-base's suites the apps run, and the test data they read).
var testDirs = []string{"test", "tests", "__tests__", "test-kit"}

// packageFiles are npm's files: shipped, but not code a team writes.
var packageFiles = []string{"package.json", "package-lock.json", "npm-shrinkwrap.json"}

// fileURL finds new URL('<relative path>', import.meta.url), how an ES
// module names a file relative to itself.
var fileURL = regexp.MustCompile(`new\s+URL\(\s*(['"` + "`" + `])([^'"` + "`" + `$]+)['"` + "`" + `]\s*,\s*import\.meta\.url\s*\)`)

// addFolder counts the files of the package folder dir into lines, skipping
// node_modules and hidden files.
func (t *nodeFiles) addFolder(dir string, lines *results.Lines) error {
	t.dirs = append(t.dirs, dir)
	return filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || t.counted[name] {
			return nil
		}
		t.counted[name] = true
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		return t.addFile(name, filepath.ToSlash(rel), lines)
	})
}

// addFile counts the file name, rel in its package folder, into lines.
func (t *nodeFiles) addFile(name, rel string, lines *results.Lines) error {
	if slices.Contains(packageFiles, rel) {
		t.shipped = append(t.shipped, name)
		return nil
	}
	top := strings.SplitN(rel, "/", 2)[0]
	if top == buildOutput && top != rel {
		t.shipped = append(t.shipped, name)
		return nil
	}
	content, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	base := path.Base(rel)
	script := slices.Contains(scriptExts, path.Ext(base))
	test := slices.Contains(testDirs, top) || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.")
	switch {
	case test && script:
		lines.Tests += countLines(content)
	case test:
		// fixtures of the tests, like Go's testdata: not counted
	case script:
		lines.JS += countLines(content)
		if !slices.Contains(typeScriptExts, path.Ext(base)) {
			t.shipped = append(t.shipped, name)
		}
		for _, m := range fileURL.FindAllStringSubmatch(string(content), -1) {
			t.referenced = append(t.referenced, filepath.Join(filepath.Dir(name), filepath.FromSlash(m[2])))
		}
	case isBuildConfig(base) && isAsset(base, content):
		lines.Other += countLines(content)
	case isAsset(base, content):
		lines.Other += countLines(content)
		t.shipped = append(t.shipped, name)
	}
	return nil
}

// schemaFiles are the files counted of a folder that code names: the
// GraphQL schema a server reads whole.
var schemaFiles = []string{"*.graphqls", "*.graphql"}

// addReferenced counts into lines.Other the files of the tree, outside the
// folders counted, that the code names: a file, or a folder's schema
// files. A name that is missing or outside the tree is not the tree's to
// count.
func (t *nodeFiles) addReferenced(lines *results.Lines) error {
	for _, ref := range t.referenced {
		if !inside(t.root, ref) || slices.ContainsFunc(t.dirs, func(d string) bool { return inside(d, ref) }) {
			continue
		}
		fi, err := os.Stat(ref)
		if err != nil {
			continue
		}
		names := []string{ref}
		if fi.IsDir() {
			names = matching(ref, schemaFiles...)
		}
		for _, name := range names {
			if t.counted[name] {
				continue
			}
			content, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			t.counted[name] = true
			if isAsset(name, content) {
				lines.Other += countLines(content)
				t.shipped = append(t.shipped, name)
			}
		}
	}
	return nil
}

// inside reports whether name is dir or lies under it.
func inside(dir, name string) bool {
	rel, err := filepath.Rel(dir, name)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
