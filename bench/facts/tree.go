package facts

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"

	"crudbench/bench/results"
)

// tree counts the lines of the module's packages that one binary links,
// each file once: Own for the app's packages, Shared for the rest.
type tree struct {
	fset   *token.FileSet
	root   string
	binary []byte
	own    results.Lines
	shared results.Lines
	// ownUses are the names the app's own code selects from other
	// packages ("crudbench/resources.Templates"): an asset a shared
	// package embeds for the app alone is the app's own.
	ownUses map[string]bool
	counted map[string]bool // files counted so far
}

// countTree counts the module's packages among pkgs, telling the app's own
// apart with isOwn.
func countTree(root string, binary []byte, pkgs []pkg, isOwn func(pkg) bool) (own, shared results.Lines, err error) {
	t := &tree{fset: token.NewFileSet(), root: root, binary: binary, counted: map[string]bool{}}
	if t.ownUses, err = ownSelections(t.fset, pkgs, isOwn); err != nil {
		return own, shared, err
	}
	for _, p := range pkgs {
		if !p.mainModule() {
			continue
		}
		lines := &t.shared
		if isOwn(p) {
			lines = &t.own
		}
		if err := t.addPackage(p, lines); err != nil {
			return own, shared, fmt.Errorf("count %s: %w", p.ImportPath, err)
		}
	}
	return t.own, t.shared, nil
}

// ownSelections returns the names the app's own packages select from
// other packages.
func ownSelections(fset *token.FileSet, pkgs []pkg, isOwn func(pkg) bool) (map[string]bool, error) {
	localNames := map[string]string{}
	for _, p := range pkgs {
		localNames[p.ImportPath] = p.Name
	}
	uses := map[string]bool{}
	for _, p := range pkgs {
		if !p.mainModule() || !isOwn(p) {
			continue
		}
		files, err := parseFiles(fset, p.Dir, p.sources())
		if err != nil {
			return nil, err
		}
		for name := range selections(files, localNames) {
			uses[name] = true
		}
	}
	return uses, nil
}

// sources are the Go files of p that the build compiles.
func (p pkg) sources() []string {
	return append(append([]string(nil), p.GoFiles...), p.CgoFiles...)
}

// addPackage counts p's Go files, tests, embedded assets and generator
// inputs into lines.
func (t *tree) addPackage(p pkg, lines *results.Lines) error {
	madeBySQLC := false
	for _, name := range p.sources() {
		f, err := readGoFile(t.fset, filepath.Join(p.Dir, name))
		if err != nil {
			return err
		}
		if f.generated {
			lines.Generated += f.lines
		} else {
			lines.Go += f.lines
		}
		madeBySQLC = madeBySQLC || f.sqlc
	}
	for _, name := range append(append([]string(nil), p.TestGoFiles...), p.XTestGoFiles...) {
		content, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil {
			return err
		}
		lines.Tests += countLines(content)
	}
	if err := t.addEmbedded(p, lines); err != nil {
		return err
	}
	inputs := folderInputs(p.Dir)
	if madeBySQLC {
		inputs = append(inputs, sqlcInputs(t.root)...)
	}
	for _, name := range inputs {
		if err := t.addOther(name, lines); err != nil {
			return err
		}
	}
	return nil
}

// addEmbedded counts the assets p embeds that the binary carries: the
// linker leaves out an embedded variable nothing reads (the REST binary
// links the resources package for its OpenAPI document, not the site's
// templates). An asset of a shared package counts as the app's own when the
// app's code reads the variable that embeds it.
func (t *tree) addEmbedded(p pkg, lines *results.Lines) error {
	if len(p.EmbedFiles) == 0 {
		return nil
	}
	files, err := parseFiles(t.fset, p.Dir, p.sources())
	if err != nil {
		return err
	}
	vars := embedPatterns(files)
	for _, name := range p.EmbedFiles {
		full := filepath.Join(p.Dir, filepath.FromSlash(name))
		content, err := os.ReadFile(full)
		if err != nil {
			return err
		}
		if t.counted[full] || !isAsset(name, content) || !bytes.Contains(t.binary, content) {
			continue
		}
		t.counted[full] = true
		if t.readByOwn(p.ImportPath, vars, name) {
			t.own.Other += countLines(content)
		} else {
			lines.Other += countLines(content)
		}
	}
	return nil
}

// readByOwn reports whether the app's own code reads a variable of the
// package importPath whose patterns embed the file name.
func (t *tree) readByOwn(importPath string, vars map[string][]string, name string) bool {
	for v, patterns := range vars {
		if !t.ownUses[importPath+"."+v] {
			continue
		}
		for _, pattern := range patterns {
			if embeds(pattern, name) {
				return true
			}
		}
	}
	return false
}

// addOther counts a generator input into lines.Other, once.
func (t *tree) addOther(name string, lines *results.Lines) error {
	if t.counted[name] {
		return nil
	}
	content, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	t.counted[name] = true
	lines.Other += countLines(content)
	return nil
}
