package report

import (
	"fmt"
	"strings"

	"crudbench/bench/results"
)

// factsTable has one row per app: its size in lines, the modules it links,
// its binary, how long it takes to become ready and its memory at rest.
// A fact that could not be measured prints as n/a (the lines too, when no
// source was counted), and the row's Problems say why.
func factsTable(run *results.Run) table {
	t := table{
		Header: []string{"app", "own Go lines", "generated lines", "test lines", "other lines", "shared lines",
			"modules direct / total", "binary MB", "start to ready ms", "idle RSS MB", "problems"},
		Right: []bool{false, true, true, true, true, true, true, true, true, true, false},
	}
	for _, f := range run.Stacks {
		o, sh := f.Own, f.Shared
		modules := na
		if f.TotalModules > 0 {
			modules = fmt.Sprintf("%d / %d", f.DirectModules, f.TotalModules)
		}
		lines := []string{na, na, na, na, na}
		if o != (results.Lines{}) {
			lines = []string{thousands(float64(o.Go)), thousands(float64(o.Generated)), thousands(float64(o.Tests)),
				thousands(float64(o.Other)), thousands(float64(sh.Go + sh.Generated + sh.Other))}
		}
		t.Rows = append(t.Rows, row{Cells: texts(append(append([]string{f.App}, lines...), modules,
			positive(binaryMB(f), 1), positive(f.StartMs, 0), positive(f.IdleRSSMB, 1),
			orDash(strings.Join(f.Problems, "; ")))...)})
	}
	return t
}

func binaryMB(f results.StackFacts) float64 { return float64(f.BinaryBytes) / results.BytesPerMB }

// positive prints v with digits decimals, or n/a for the zero of a fact
// that was not measured.
func positive(v float64, digits int) string {
	if v <= 0 {
		return na
	}
	return fixed(v, digits)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// factsHowTo explains the columns of the stack facts.
const factsHowTo = "Computed from the source tree and the built binaries, not from load. " +
	"Own lines are the non-blank lines of the app's own packages: hand-written Go (tests excluded), generated Go, tests, and other files (schema, templates, SQL, the app's own static files; vendored third-party assets excluded). " +
	"Shared lines are those of the other crudbench packages the binary links (the data layer, the apps' common packages): every app carries them. " +
	"Modules: direct are the outside modules the crudbench packages import, total every module linked into the binary (go version -m). " +
	"Start to ready is the time from starting the process to its first successful /readyz; idle RSS its resident memory then, before any load."
