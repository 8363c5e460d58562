package facts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"crudbench/bench/results"
)

// MeasureNode returns the facts of the Node.js app in ./apps/<app> of the
// tree at root, a package of the npm workspace there, installed (npm ci
// at root): NodeTree's, plus the version of the node on PATH, which the
// runner starts it with, and the bytes a deploy of the app alone ships:
// the packages of its dependency closure (see NodeTree), each folder of
// node_modules once, and the files NodeTree counts outside tests, with the
// package files and the build step's output, less the TypeScript sources
// and compiler settings that output replaces — not the rest of the
// hoisted node_modules, which other apps and the tools need. StartMs and
// IdleRSSMB are left for the caller, who started the process.
func MeasureNode(ctx context.Context, root, app string) (results.StackFacts, error) {
	facts, t, c, err := nodeTree(root, app)
	if err != nil {
		return facts, err
	}
	if facts.RuntimeVersion, err = nodeVersion(ctx); err != nil {
		return facts, err
	}
	for _, name := range t.shipped {
		fi, err := os.Stat(name)
		if err != nil {
			return facts, fmt.Errorf("facts: %w", err)
		}
		facts.DeployedBytes += fi.Size()
	}
	for _, p := range c.packages {
		dir := filepath.Join(t.root, filepath.FromSlash(p))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			if c.optional[p] {
				continue // not for this platform
			}
			return facts, fmt.Errorf("facts: %s is not installed: install the workspace's packages with npm ci at %s", p, t.root)
		}
		n, err := packageBytes(dir)
		if err != nil {
			return facts, fmt.Errorf("facts: %w", err)
		}
		facts.DeployedBytes += n
	}
	return facts, nil
}

// NodeTree returns the facts of the Node.js app in ./apps/<app> of the
// tree at root that its files say without installing it: lines, direct
// and total packages and framework versions, from its sources, its
// package.json and the workspace's package-lock.json at root. The attach
// mode, which did not install what runs, has these only.
//
// The app's packages are its own dependency closure, walked through the
// lockfile as Node.js resolves an import (see closureOf): direct are the
// packages the app and its local packages (the workspace's, such as
// apps/node-base) name in dependencies, total every package reached from
// them, each name and version once — not all the hoisted node_modules
// holds, which is every app's and the tools' too.
//
// Lines are counted as for Go (see Measure): JavaScript and TypeScript
// files, tests apart (a test/ folder, *.test.* and *.spec.* files), and
// as Other the other text files beside them (Markdown and minified builds
// excluded, see isAsset). Files under apps/<app>/ are Own; Shared are
// the local packages its dependencies link to (the apps' common code,
// counted the same way) and the files of the tree outside them
// that its code reads by new URL(…, import.meta.url): a file, or a
// folder's GraphQL schema (*.graphqls, *.graphql) — the Go apps' schema
// and OpenAPI document, which are Own for the Go app that embeds them.
// Node.js ships every file of its folders, so all count, not only those
// the main script imports. TypeScript counts like JavaScript, and its
// compiler's settings (tsconfig*.json) as Other; what the app's build
// step compiles them into (dist/) is no one's lines, and is what a
// deploy ships in their place (MeasureNode).
func NodeTree(root, app string) (results.StackFacts, error) {
	facts, _, _, err := nodeTree(root, app)
	return facts, err
}

func nodeTree(root, app string) (results.StackFacts, *nodeFiles, *closure, error) {
	facts := results.StackFacts{App: app, Runtime: runtimeNode}
	root, err := filepath.Abs(root)
	if err != nil {
		return facts, nil, nil, fmt.Errorf("facts: %w", err)
	}
	dir := filepath.Join(root, "apps", app)
	if fi, err := os.Stat(filepath.Join(dir, "package.json")); err != nil || fi.IsDir() || !filepath.IsLocal(app) || strings.ContainsAny(app, `/\`) {
		return facts, nil, nil, fmt.Errorf("facts: no Node.js app %q in the tree at %s", app, root)
	}
	lock, err := readLockfile(root)
	if err != nil {
		return facts, nil, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	key := "apps/" + app
	c, err := lock.closureOf(root, key)
	if err != nil {
		return facts, nil, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	t := &nodeFiles{root: root, counted: map[string]bool{}}
	for i, m := range c.locals {
		lines := &facts.Shared
		if i == 0 {
			lines = &facts.Own
		}
		if err := t.addFolder(m.dir, lines); err != nil {
			return facts, nil, nil, fmt.Errorf("facts: %s: %w", app, err)
		}
	}
	if err := t.addReferenced(&facts.Shared); err != nil {
		return facts, nil, nil, fmt.Errorf("facts: %s: %w", app, err)
	}
	facts.DirectModules = c.direct(lock)
	facts.TotalModules = c.total(lock)
	facts.Frameworks = frameworksOf(nodeFrameworks, func(name string) (string, bool) { return c.version(lock, key, name) })
	return facts, t, c, nil
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

// packageBytes sums the sizes of the regular files of the installed
// package in dir, not following symbolic links (those of its
// node_modules/.bin point at files counted where they lie), and not its
// own node_modules: the packages there are install paths of their own,
// counted when the app's closure holds them.
func packageBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" && filepath.Dir(name) == dir {
			return filepath.SkipDir
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
