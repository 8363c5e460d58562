package facts

import (
	"debug/buildinfo"
	"fmt"
	"os"

	"crudbench/bench/results"
)

// Binary returns the facts a binary holds by itself — its size, its Go
// version and the modules linked into it — for an app whose source tree is not at hand (a
// bench in a container, attached to apps it can see through /proc): lines
// and direct modules need the tree and are left zero.
func Binary(bin string) (results.StackFacts, error) {
	var facts results.StackFacts
	fi, err := os.Stat(bin)
	if err != nil {
		return facts, fmt.Errorf("facts: %w", err)
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return facts, fmt.Errorf("facts: read the build info of %s: %w", bin, err)
	}
	facts.TotalModules = len(info.Deps)
	facts.BinaryBytes = fi.Size()
	goRuntime(&facts, info)
	return facts, nil
}
