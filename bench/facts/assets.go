package facts

import (
	"bytes"
	"go/ast"
	"go/token"
	"path"
	"path/filepath"
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
