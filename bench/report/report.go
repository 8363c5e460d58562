// Package report turns a benchmark run into what people and programs read:
// report.md (tables to paste into a decision document), report.html
// (self-contained, charts drawn inline as SVG, opens offline), results.json
// (the versioned schema of package results), a console summary, and
// findings written from the numbers rather than by hand.
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
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"crudbench/bench/results"
)

// File names Write creates inside the results folder.
const (
	MarkdownFile = "report.md"
	HTMLFile     = "report.html"
	JSONFile     = "results.json"
)

// Write creates dir (if needed) and writes report.md, report.html and
// results.json for run. The samples CSV and raw vegeta files are written by
// the runner; the reports link them through Result.RawFile and
// Result.SamplesFile (paths relative to dir), and report.html reads the
// samples found there for its over-time charts.
//
// results.json always carries results.SchemaVersion: this package writes that
// schema whatever run.SchemaVersion says, so a runner that forgot to set it
// still produces a file Read accepts. Every file is attempted even when an
// earlier one fails, so one broken writer never costs the others.
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
	if js, err := json.MarshalIndent(&r, "", "  "); err != nil {
		errs = append(errs, fmt.Errorf("report: encode %s: %w", JSONFile, err))
	} else {
		errs = append(errs, writeFile(filepath.Join(dir, JSONFile), append(js, '\n')))
	}
	errs = append(errs, writeFile(filepath.Join(dir, MarkdownFile), markdown(&r)))
	if page, err := renderHTML(dir, &r); err != nil {
		errs = append(errs, fmt.Errorf("report: render %s: %w", HTMLFile, err))
	} else {
		errs = append(errs, writeFile(filepath.Join(dir, HTMLFile), page))
	}
	return errors.Join(errs...)
}

// Read loads a results.json written by Write, of any schema version from
// results.OldestReadable to results.SchemaVersion: an older file simply lacks
// the newer sections (a version 1 file has no SLO, so its verdicts are ok or
// saturated only). It refuses any other version, whose fields may mean
// something else.
func Read(path string) (*results.Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var run results.Run
	if err := json.Unmarshal(b, &run); err != nil {
		return nil, fmt.Errorf("report: decode %s: %w", path, err)
	}
	if v := run.SchemaVersion; v < results.OldestReadable || v > results.SchemaVersion {
		return nil, fmt.Errorf("report: %s has schema version %d, this build reads versions %d to %d", path, v, results.OldestReadable, results.SchemaVersion)
	}
	return &run, nil
}

func writeFile(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
