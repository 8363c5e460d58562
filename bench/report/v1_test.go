package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// TestReadVersion1 renders a results.json written by the version 1 runner
// (commit 3bc7eb9: read-one and write, light profile, 2 s windows). It has
// no SLO, so its verdicts are ok or saturated, and none of the sections
// that came with version 2.
func TestReadVersion1(t *testing.T) {
	run, err := results.Read(filepath.Join("testdata", "v1", results.JSONFile))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if run.SchemaVersion != 1 || run.Settings.SLOP99 != 0 || len(run.Results) != 6 {
		t.Fatalf("testdata is not the version 1 run: schema %d, SLO %v, %d results", run.SchemaVersion, run.Settings.SLOP99, len(run.Results))
	}
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "samples"), os.DirFS(filepath.Join("testdata", "v1", "samples"))); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(dir, run); err != nil {
		t.Fatalf("Write: %v", err)
	}
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	page := readFile(t, filepath.Join(dir, report.HTMLFile))
	checkBalanced(t, page)
	for _, want := range []string{"## Results: light", "| read-one | rest | 100 |", "| write | htmx | 20 |", "Verdict: ok when throughput",
		"## Bottom line", "| app | read-one CPU-ms/req | read-one bytes/resp | write CPU-ms/req | write bytes/resp | RSS max MB |",
		"read-one: profile light at 100 req/s; write: profile light at 20 req/s."} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md of the version 1 run lacks %q", want)
		}
	}
	for _, unwanted := range []string{"slow:", "| slow", "SLO", "## Capacity", "## Where the CPU goes", "## Stack facts", "capacity req/s"} {
		if strings.Contains(md, unwanted) {
			t.Errorf("report.md of the version 1 run has %q, which version 1 did not measure", unwanted)
		}
	}
	if strings.Contains(page, "Capacity") {
		t.Errorf("report.html of the version 1 run has a capacity section")
	}
	for _, r := range run.Results {
		if r.Verdict != results.VerdictOK && r.Verdict != results.VerdictSaturated {
			t.Errorf("%s/%s: verdict %q in a version 1 file", r.Scenario, r.App, r.Verdict)
		}
	}
}
