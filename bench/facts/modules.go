package facts

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
)

// directModules counts the modules outside the main one whose packages the
// main module's linked packages import themselves, as opposed to those
// that only come along as their dependencies. Each must be in the
// binary's build info (deps); one that is not means the binary was not
// built from this tree.
func directModules(pkgs []pkg, deps []*debug.Module) (int, error) {
	moduleOf := map[string]*module{}
	for _, p := range pkgs {
		moduleOf[p.ImportPath] = p.Module
	}
	direct := map[string]bool{}
	for _, p := range pkgs {
		if !p.mainModule() {
			continue
		}
		for _, imp := range p.Imports {
			if m := moduleOf[imp]; m != nil && !m.Main {
				direct[m.Path] = true
			}
		}
	}
	var missing []string
	for path := range direct {
		if !slices.ContainsFunc(deps, func(d *debug.Module) bool { return d.Path == path }) {
			missing = append(missing, path)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return 0, fmt.Errorf("the binary does not link %s, which the tree imports: was it built from this tree?", strings.Join(missing, ", "))
	}
	return len(direct), nil
}
