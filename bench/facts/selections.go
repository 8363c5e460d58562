package facts

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
)

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
