package facts

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// isAsset reports whether an embedded file is counted in Lines.Other. Three
// kinds are not:
//   - binary content (not UTF-8 text, or holding NUL bytes: the gzipped
//     GraphiQL build), which has no lines;
//   - Markdown (*.md), documentation that rides along with a folder
//     embedded whole, such as the record of vendored files;
//   - minified builds (a name with ".min." in it: htmx, GraphiQL, React),
//     which are third-party releases vendored verbatim, never written here.
func isAsset(name string, content []byte) bool {
	base := path.Base(filepath.ToSlash(name))
	switch {
	case strings.HasSuffix(base, ".md"), strings.Contains(base, ".min."):
		return false
	case !utf8.Valid(content), bytes.IndexByte(content, 0) >= 0:
		return false
	}
	return true
}

// generatorInputs are the names of the files a code generator reads that
// live beside the package it generates (gqlgen's config and schema): they
// are the source a team writes in place of the generated Go.
var generatorInputs = []string{"*.graphqls", "gqlgen.yml", "gqlgen.yaml"}

// folderInputs returns the generator inputs in the folder dir.
func folderInputs(dir string) []string {
	var names []string
	for _, pattern := range generatorInputs {
		found, _ := filepath.Glob(filepath.Join(dir, pattern)) // the patterns are well-formed
		names = append(names, found...)
	}
	return names
}

// sqlcConfigNames are the names sqlc looks for its config under.
var sqlcConfigNames = []string{"sqlc.yaml", "sqlc.yml", "sqlc.json"}

// sqlcPaths finds the scalar queries: and schema: entries of a sqlc config.
var sqlcPaths = regexp.MustCompile(`(?m)^\s*(?:-\s*)?"?(?:queries|schema)"?\s*:\s*"?([^"\s,#]+)"?,?\s*$`)

// sqlcInputs returns the files sqlc reads to generate a package: its config
// at the module root and the SQL files the config names (a file, or the
// *.sql files of a folder). sqlc keeps them apart from its output, at the
// top of the tree, so they are not found beside the package.
func sqlcInputs(root string) []string {
	for _, name := range sqlcConfigNames {
		config := filepath.Join(root, name)
		content, err := os.ReadFile(config)
		if err != nil {
			continue
		}
		inputs := []string{config}
		for _, m := range sqlcPaths.FindAllSubmatch(content, -1) {
			p := filepath.Join(root, filepath.FromSlash(string(m[1])))
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				inputs = append(inputs, p)
				continue
			}
			found, _ := filepath.Glob(filepath.Join(p, "*.sql"))
			inputs = append(inputs, found...)
		}
		return inputs
	}
	return nil
}

// embedPatterns returns the //go:embed patterns of each package-level
// variable declared in files, by variable name.
func embedPatterns(files []*ast.File) map[string][]string {
	vars := map[string][]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil && len(gen.Specs) == 1 {
					doc = gen.Doc
				}
				patterns := directivePatterns(doc)
				for _, name := range vs.Names {
					vars[name.Name] = append(vars[name.Name], patterns...)
				}
			}
		}
	}
	return vars
}

// directivePatterns returns the patterns of the //go:embed lines of doc.
func directivePatterns(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var patterns []string
	for _, c := range doc.List {
		args, ok := strings.CutPrefix(c.Text, "//go:embed ")
		if !ok {
			continue
		}
		for _, field := range strings.Fields(args) {
			if p, err := strconv.Unquote(field); err == nil {
				field = p
			}
			patterns = append(patterns, strings.TrimPrefix(field, "all:"))
		}
	}
	return patterns
}

// embeds reports whether an embed pattern covers the file name (relative to
// the package folder, slash-separated): the pattern matches the file or one
// of the folders above it, which go:embed then takes whole.
func embeds(pattern, name string) bool {
	for p := name; p != "."; p = path.Dir(p) {
		if ok, _ := path.Match(pattern, p); ok {
			return true
		}
	}
	return false
}

// selections returns the exported names of imported packages that files
// use, as "import/path.Name". localNames maps an import path to the name
// its package declares, used where an import does not rename it.
func selections(files []*ast.File, localNames map[string]string) map[string]bool {
	used := map[string]bool{}
	for _, f := range files {
		imported := map[string]string{} // local name -> import path
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value) // the parser checked it
			name := localNames[p]
			if spec.Name != nil {
				name = spec.Name.Name
			}
			imported[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && imported[x.Name] != "" {
				used[imported[x.Name]+"."+sel.Sel.Name] = true
			}
			return true
		})
	}
	return used
}

// parseFiles parses the named files of folder dir with their comments.
func parseFiles(fset *token.FileSet, dir string, names []string) ([]*ast.File, error) {
	files := make([]*ast.File, 0, len(names))
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}
