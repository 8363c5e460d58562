// Package report turns a benchmark run into what people and programs read:
// report.md (tables to paste into a decision document), report.html
// (self-contained, charts drawn inline as SVG, opens offline), a console
// summary, and findings written from the numbers rather than by hand.
// Package results reads and writes results.json beside them.
//
// Besides the per-profile results, a report shows what the run measured of
// schema version 2: the bottom line (a table per app and sentences computed
// from it), the capacity searches with their probes, latency against the
// offered rate and per second, where the CPU went by layer, and the stack
// facts. A section whose numbers are absent, as in a version 1 file, is left
// out rather than shown empty.
//
// A value that was not measured prints as "n/a", never as a zero that looks
// like a measurement, and runs that failed validation or were skipped stay in
// every table with their verdict and reason.
package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"crudbench/bench/results"
)

// File names Write creates inside the results folder, beside
// results.JSONFile.
const (
	MarkdownFile = "report.md"
	HTMLFile     = "report.html"
)

// Write creates dir (if needed) and writes report.md and report.html for
// run; results.Write writes the results.json beside them. The samples CSV
// and raw vegeta files are written by the runner; the reports link them
// through Result.RawFile and Result.SamplesFile (paths relative to dir),
// and report.html reads the samples found there for its over-time charts.
//
// The reports render run as of results.SchemaVersion whatever
// run.SchemaVersion says, as results.Write records it. Both files are
// attempted even when the first fails, so one broken writer never costs
// the other.
func Write(dir string, run *results.Run) error {
	if run == nil {
		return errors.New("report: nil run")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	r := *run
	r.SchemaVersion = results.SchemaVersion

	var errs []error
	errs = append(errs, writeFile(filepath.Join(dir, MarkdownFile), markdown(&r)))
	if page, err := renderHTML(dir, &r); err != nil {
		errs = append(errs, fmt.Errorf("report: render %s: %w", HTMLFile, err))
	} else {
		errs = append(errs, writeFile(filepath.Join(dir, HTMLFile), page))
	}
	return errors.Join(errs...)
}

func writeFile(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
