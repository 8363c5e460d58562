package facts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"crudbench/bench/results"
)

// MeasureNode returns the facts of the Node.js app in ./apps/<app> of the
// tree at root, installed there (npm ci): NodeTree's, plus the version of
// the node on PATH, which the runner starts it with, and the bytes a
// deploy ships: node_modules (the app's, and any of its local packages')
// and the files NodeTree counts outside tests, with the package files.
// StartMs and IdleRSSMB are left for the caller, who started the process.
func MeasureNode(ctx context.Context, root, app string) (results.StackFacts, error) {
	facts, t, err := nodeTree(root, app)
	if err != nil {
		return facts, err
	}
	if facts.RuntimeVersion, err = nodeVersion(ctx); err != nil {
		return facts, err
	}
	modules := filepath.Join(t.dirs[0], "node_modules")
	if fi, err := os.Stat(modules); err != nil || !fi.IsDir() {
		return facts, fmt.Errorf("facts: %s has no node_modules: install its packages with npm ci there", t.dirs[0])
	}
	// A local package (apps/node-base) is installed into node_modules as
	// a copy (install-links in the app's .npmrc) and counted there, once,
	// not again from its folder, whose own node_modules (from running its
	// tests) is not deployed. Linked instead, it is deployed from its
	// folder, its node_modules with it (node resolves a link's imports
	// from its real path).
	linked := []string{t.dirs[0]}
	for _, d := range t.dirs[1:] {
		if isLinked(modules, d) {
			linked = append(linked, d)
		}
	}
	in := func(dirs []string, name string) bool {
		return slices.ContainsFunc(dirs, func(d string) bool { return inside(d, name) })
	}
	for _, name := range t.shipped {
		if in(t.dirs[1:], name) && !in(linked, name) {
			continue // a copied local package's: counted in node_modules
		}
		fi, err := os.Stat(name)
		if err != nil {
			return facts, fmt.Errorf("facts: %w", err)
		}
		facts.DeployedBytes += fi.Size()
	}
	for _, d := range linked {
		n, err := regularBytes(filepath.Join(d, "node_modules"))
		if err != nil {
			return facts, fmt.Errorf("facts: %w", err)
		}
		facts.DeployedBytes += n
	}
	return facts, nil
}

// isLinked reports whether the local package in dir is installed into the
// node_modules folder modules as a link (npm's default for a "file:"
// folder) rather than a copy: modules/<its name> is a symbolic link.
func isLinked(modules, dir string) bool {
	content, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return false
	}
	var pkg struct{ Name string }
	if json.Unmarshal(content, &pkg) != nil || pkg.Name == "" {
		return false
	}
	fi, err := os.Lstat(filepath.Join(modules, filepath.FromSlash(pkg.Name)))
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// NodeTree returns the facts of the Node.js app in ./apps/<app> of the
// tree at root that its files say without installing it: lines, direct
// and total packages and framework versions, from its sources,
// package.json and package-lock.json. The attach mode, which did not
// install what runs, has these only.
//
// Lines are counted as for Go (see Measure): JavaScript and TypeScript
// files, tests apart (a test/ folder, *.test.* and *.spec.* files), and
// as Other the other text files beside them (Markdown and minified builds
// excluded, see isAsset). Files under apps/<app>/ are Own; Shared are
// the local packages its package.json names with file: (the apps' common
// code, counted the same way) and the files of the tree outside them
// that its code reads by new URL(…, import.meta.url): a file, or a
// folder's GraphQL schema (*.graphqls, *.graphql) — the Go apps' schema
// and OpenAPI document, which are Own for the Go app that embeds them.
// Node.js ships every file of its folders, so all count, not only those
// the main script imports.
func NodeTree(root, app string) (results.StackFacts, error) {
	facts, _, err := nodeTree(root, app)
	return facts, err
}

func nodeTree(root, app string) (results.StackFacts, *nodeFiles, error) {
	facts := results.StackFacts{App: app, Runtime: runtimeNode}
	root, err := filepath.Abs(root)
	if err != nil {
		return facts, nil, fmt.Errorf("facts: %w", err)
	}
	dir := filepath.Join(root, "apps", app)
	if fi, err := os.Stat(filepath.Join(dir, "package.json")); err != nil || fi.IsDir() || !filepath.IsLocal(app) || strings.ContainsAny(app, `/\`) {
		return facts, nil, fmt.Errorf("facts: no Node.js app %q in the tree at %s", app, root)
	}
	manifests, err := readManifests(dir)
	if err != nil {
		return facts, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	t := &nodeFiles{root: root, counted: map[string]bool{}}
	for i, m := range manifests {
		lines := &facts.Shared
		if i == 0 {
			lines = &facts.Own
		}
		if err := t.addFolder(m.dir, lines); err != nil {
			return facts, nil, fmt.Errorf("facts: %s: %w", app, err)
		}
	}
	if err := t.addReferenced(&facts.Shared); err != nil {
		return facts, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	lock, err := readLockfile(dir)
	if err != nil {
		return facts, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	if facts.DirectModules, err = directPackages(manifests, lock); err != nil {
		return facts, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	facts.TotalModules = lock.total()
	facts.Frameworks = frameworksOf(nodeFrameworks, lock.version)
	return facts, t, nil
}

// nodeVersion returns the version of the node on PATH, without its "v".
func nodeVersion(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "node", "--version").Output()
	if errors.Is(err, exec.ErrNotFound) {
		return "", errors.New("facts: node not found on PATH: install Node.js 20 or newer (with npm)")
	}
	if err != nil {
		return "", fmt.Errorf("facts: node --version: %w", err)
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), nil
}

// regularBytes sums the sizes of the regular files under dir, not
// following symbolic links: a local package node_modules links to is
// counted from its own folder, and the links of node_modules/.bin point
// at files already counted.
func regularBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && name == dir {
				return nil // a local package without its own node_modules
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		n += fi.Size()
		return nil
	})
	return n, err
}
