package report

import (
	"fmt"
	"strings"

	"crudbench/bench/results"
)

// factsTable has one row per app: its runtime and frameworks, its size in
// lines, its dependencies, what it deploys, how long it takes to become
// ready and its memory at rest. A fact that could not be measured prints
// as n/a (the lines too, when no source was counted), and the row's
// Problems say why. The headings name Go's terms (Go lines, modules,
// binary) until a Node.js app is among the apps.
func factsTable(run *results.Run) table {
	w := wordsOf(run)
	t := table{
		Header: []string{"app", "runtime", "frameworks", "own " + w.code + " lines", "generated lines", "test lines", "other lines", "shared lines",
			w.deps + " direct / total", w.deployed + " MB", "start to ready ms", "idle RSS MB", "problems"},
		Right: []bool{false, false, false, true, true, true, true, true, true, true, true, true, false},
	}
	for _, f := range run.Stacks {
		o, sh := f.Own, f.Shared
		modules := na
		if f.TotalModules > 0 {
			modules = fmt.Sprintf("%d / %d", f.DirectModules, f.TotalModules)
		}
		lines := []string{na, na, na, na, na}
		if o != (results.Lines{}) {
			lines = []string{thousands(float64(o.Code())), thousands(float64(o.Generated)), thousands(float64(o.Tests)),
				thousands(float64(o.Other)), thousands(float64(sh.Code() + sh.Generated + sh.Other))}
		}
		cells := []cell{{Text: f.App}, {Text: runtimeText(f)}, {Text: frameworksText(f), Wrap: true}}
		cells = append(cells, texts(append(lines, modules, positive(deployedMB(f), 1), positive(f.StartMs, 0),
			positive(f.IdleRSSMB, 1), orDash(strings.Join(f.Problems, "; ")))...)...)
		t.Rows = append(t.Rows, row{Cells: cells})
	}
	return t
}

// factWords are the words the facts use for what differs between
// toolchains.
type factWords struct {
	code     string // the language of the hand-written lines
	deps     string // what dependencies are counted as
	deployed string // what a deploy ships
	// deployNoun is deployed as the subject of a sentence.
	deployNoun string
}

// wordsOf returns Go's words for a run of Go apps only (every run recorded
// before Node.js apps), and words that fit both toolchains otherwise.
func wordsOf(run *results.Run) factWords {
	for _, f := range run.Stacks {
		if f.Runtime != "" && f.Runtime != "Go" {
			return factWords{code: "code", deps: "dependencies", deployed: "deployed", deployNoun: "deployed size"}
		}
	}
	return factWords{code: "Go", deps: "modules", deployed: "binary", deployNoun: "binary"}
}

// runtimeText prints the runtime and its version, n/a when not recorded.
func runtimeText(f results.StackFacts) string {
	return orNA(strings.TrimSpace(f.Runtime + " " + f.RuntimeVersion))
}

// frameworksText lists the frameworks with their versions, n/a when none
// were recorded.
func frameworksText(f results.StackFacts) string {
	var parts []string
	for _, fw := range f.Frameworks {
		parts = append(parts, fw.Name+" "+fw.Version)
	}
	return orNA(strings.Join(parts, ", "))
}

// deployedMB is what a deploy of the app ships: a Go app's binary, a
// Node.js app's installed folder.
func deployedMB(f results.StackFacts) float64 {
	if f.BinaryBytes > 0 {
		return float64(f.BinaryBytes) / results.BytesPerMB
	}
	return float64(f.DeployedBytes) / results.BytesPerMB
}

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

// factsHowTo explains the columns of the stack facts, and for a run with
// Node.js apps how theirs are measured.
func factsHowTo(run *results.Run) string {
	s := "Computed from the source tree and the built binaries, not from load. " +
		"Runtime is the Go that built the binary; frameworks the versions of the server, GraphQL, template, data loader and PostgreSQL driver libraries the app links. " +
		"Own lines are the non-blank lines of the app's own packages: hand-written Go (tests excluded), generated Go, tests, and other files (schema, templates, SQL, the app's own static files; vendored third-party assets excluded). " +
		"Shared lines are those of the other crudbench packages the binary links (the data layer, the apps' common packages): every app carries them. " +
		"Modules: direct are the outside modules the crudbench packages import, total every module linked into the binary (go version -m). " +
		"Start to ready is the time from starting the process to its first successful /readyz; idle RSS its resident memory then, before any load."
	if wordsOf(run).code == "Go" {
		return s
	}
	return s + " " +
		"A Node.js app is measured from its folder after npm ci: runtime is node --version, frameworks the versions its package-lock.json installs. " +
		"Its own code lines are hand-written JavaScript and TypeScript counted like Go (every file of its folder, since all of it ships; tests apart), its shared lines its local file: packages and the tree's files it reads (the GraphQL schema, the OpenAPI document). " +
		"Its dependencies are npm packages: direct those of its package.json, total the distinct packages of its lockfile. " +
		"Deployed MB is a Go app's binary, which carries its runtime, and a Node.js app's node_modules plus its sources and package files, without node itself."
}
