// Package facts measures what an app costs besides CPU and time: its lines
// of code, its runtime and frameworks, the modules linked into it or the
// packages installed for it and the size of what is deployed, from the
// source tree and the built binary (Go) or installed folder (Node.js, see
// MeasureNode).
//
// For a Go app only what the binary links is counted: the packages `go list -deps`
// finds for the app in the build context of this platform (test-only
// helpers such as db/dbtest are not linked, so not counted), and of the
// files they embed only those whose content the binary carries.
package facts

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"crudbench/bench/results"
)

// Measure returns the facts of app (./apps/<app> of the module at root)
// whose binary is bin. StartMs and IdleRSSMB are left for the caller, who
// started the process.
//
// Lines are counted per file kind (see results.Lines): Go files by the
// generated-code marker, test files, and as Other the text files the
// packages embed (see isAsset) plus the generator inputs that stand for
// generated code (see generatorInputs and sqlcInputs). Files of packages
// under apps/<app>/ are Own, those of the module's other packages Shared,
// except an asset a shared package embeds for the app's code alone (the
// site's templates in the resources package), which is Own.
func Measure(ctx context.Context, root, app, bin string) (results.StackFacts, error) {
	facts := results.StackFacts{App: app}
	root, err := filepath.Abs(root)
	if err != nil {
		return facts, fmt.Errorf("facts: %w", err)
	}
	if fi, err := os.Stat(filepath.Join(root, "apps", app)); err != nil || !fi.IsDir() || !filepath.IsLocal(app) || strings.ContainsAny(app, `/\`) {
		return facts, fmt.Errorf("facts: no app %q in the tree at %s", app, root)
	}
	binary, err := os.ReadFile(bin)
	if err != nil {
		return facts, fmt.Errorf("facts: read the binary of %s: %w", app, err)
	}
	info, err := buildinfo.Read(bytes.NewReader(binary))
	if err != nil {
		return facts, fmt.Errorf("facts: read the build info of %s: %w", bin, err)
	}
	pkgs, err := listDeps(ctx, root, "./apps/"+app)
	if err != nil {
		return facts, fmt.Errorf("facts: %w", err)
	}
	appPath := pkgs[len(pkgs)-1].ImportPath // go list -deps lists the pattern's package last
	if info.Path != appPath {
		return facts, fmt.Errorf("facts: %s is the binary of %s, not of %s", bin, info.Path, appPath)
	}
	isOwn := func(p pkg) bool { return p.ImportPath == appPath || strings.HasPrefix(p.ImportPath, appPath+"/") }
	if facts.Own, facts.Shared, err = countTree(root, binary, pkgs, isOwn); err != nil {
		return facts, fmt.Errorf("facts: %s: %w", app, err)
	}
	if facts.DirectModules, err = directModules(pkgs, info.Deps); err != nil {
		return facts, fmt.Errorf("facts: %s: %w", app, err)
	}
	facts.TotalModules = len(info.Deps)
	facts.BinaryBytes = int64(len(binary))
	goRuntime(&facts, info)
	return facts, nil
}
