package facts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// pkg is one package of `go list -json` output, with the fields the facts
// need.
type pkg struct {
	ImportPath   string
	Name         string
	Dir          string
	Standard     bool
	Module       *module
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	EmbedFiles   []string
	Imports      []string
}

// module is the module a listed package belongs to.
type module struct {
	Path string
	Main bool
	Dir  string
}

// listFields are the fields go list fills in: asking for fewer keeps it
// from computing the rest (staleness, for one, reads every dependency).
const listFields = "ImportPath,Name,Dir,Standard,Module,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,EmbedFiles,Imports"

// listDeps returns the package pattern and every package it links, in the
// build context of this platform, as the go command resolves them in root.
// Test files do not decide what is linked (-test is not given), but each
// package still names its own test files.
func listDeps(ctx context.Context, root, pattern string) ([]pkg, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("go not found: %w", err)
	}
	cmd := exec.CommandContext(ctx, goTool, "list", "-deps", "-json="+listFields, pattern)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s in %s: %w: %s", pattern, root, err, strings.TrimSpace(stderr.String()))
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			return pkgs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("go list %s: read its output: %w", pattern, err)
		}
		pkgs = append(pkgs, p)
	}
}

// mainModule reports whether p belongs to the module being measured.
func (p pkg) mainModule() bool {
	return p.Module != nil && p.Module.Main
}
