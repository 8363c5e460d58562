package report_test

import (
	"path/filepath"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// nodeRun is bottomLineRun with a Node.js app's stack facts beside the
// Go apps'.
func nodeRun(t *testing.T) *results.Run {
	t.Helper()
	run := bottomLineRun(t)
	run.Stacks = append(run.Stacks, results.StackFacts{
		App: "express", Runtime: "Node.js", RuntimeVersion: "20.20.2",
		Frameworks: []results.Framework{{Name: "express", Version: "5.3.0"}, {Name: "pg", Version: "8.23.1"}},
		Own:        results.Lines{JS: 1345, Tests: 389}, Shared: results.Lines{JS: 600, Other: 1075},
		DirectModules: 6, TotalModules: 113, DeployedBytes: int64(7.5 * results.BytesPerMB), StartMs: 95, IdleRSSMB: 60,
	})
	return run
}

func TestStackFactsOfNodeApps(t *testing.T) {
	dir := written(t, nodeRun(t))
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	section := between(md, "## Stack facts\n", "\n## ")
	for _, want := range []string{
		"| app | runtime | frameworks | own code lines | generated lines | test lines | other lines | shared lines | dependencies direct / total | deployed MB | start to ready ms | idle RSS MB | problems |",
		// JavaScript counts as own code, the local package's code and the
		// files read from the tree as shared.
		"| express | Node.js 20.20.2 | express 5.3.0, pg 8.23.1 | 1,345 | 0 | 389 | 0 | 1,675 | 6 / 113 | 7.5 | 95 | 60.0 | – |",
		// A Go app deploys its binary.
		"| rest | Go 1.26.0 | chi 5.5.0, pgx 5.12.0 | 800 | 0 | 650 | 120 | 5,400 | 9 / 41 | 14.0 | 180 | 12.5 | – |",
		"node_modules plus its sources",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("stack facts lack\n%s\nsection:\n%s", want, section)
		}
	}
	bl := between(md, "## Bottom line\n", "\n## ")
	for _, want := range []string{
		"| deployed MB | own code lines |",
		"| 7.5 | 1,345 |",
		"- rest's deployed size is 1.87× express's (14.0 vs 7.5 MB), with 0.59× its hand-written code lines (800 vs 1,345); ",
	} {
		if !strings.Contains(bl, want) {
			t.Errorf("the bottom line lacks\n%s\n%s", want, bl)
		}
	}
	if html := readFile(t, filepath.Join(dir, report.HTMLFile)); !strings.Contains(html, "Node.js 20.20.2") || !strings.Contains(html, "deployed MB") {
		t.Error("report.html lacks the Node.js app's runtime or the deployed size")
	}
}

// A run of Go apps only keeps Go's words, and a run recorded before
// runtimes and frameworks were measured shows them as n/a.
func TestStackFactsOfGoApps(t *testing.T) {
	run := bottomLineRun(t)
	run.Stacks[0].Runtime, run.Stacks[0].RuntimeVersion, run.Stacks[0].Frameworks = "", "", nil
	md := readFile(t, filepath.Join(written(t, run), report.MarkdownFile))
	section := between(md, "## Stack facts\n", "\n## ")
	for _, want := range []string{
		"| own Go lines |", "| modules direct / total | binary MB |",
		"| rest | n/a | n/a | 800 |",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("stack facts lack %q:\n%s", want, section)
		}
	}
	if strings.Contains(section, "Node.js") {
		t.Errorf("the stack facts of Go apps explain Node.js:\n%s", section)
	}
	if bl := between(md, "## Bottom line\n", "\n## "); !strings.Contains(bl, "| binary MB | own Go lines |") {
		t.Errorf("the bottom line of Go apps lacks Go's words:\n%s", bl)
	}
}
