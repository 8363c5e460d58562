package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"crudbench/bench/merge"
	"crudbench/bench/report"
	"crudbench/bench/results"
)

const mergeUsage = `Usage: go run ./bench merge [-out DIR] SHARD_DIR...

Merges the results folders of the shards of one run (runners started with
-shard i/N and one -start-at) into the results of one runner, and writes
report.md, report.html and results.json into a new folder under -out. Name
the timestamped results folder of every shard, 0 to N-1, each once.

`

// mergeCommand runs `bench merge`: it merges the shards' folders named in
// args, writes the reports and prints the summary.
func mergeCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "results", "`folder` for the merged results (a timestamped subfolder is made)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), mergeUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("merge: name the results folders of the shards to merge")
	}
	run, dir, err := merge.Merge(fs.Args(), *out, time.Now())
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := writeReports(dir, run); err != nil {
		return err
	}
	report.Summary(stdout, run)
	fmt.Fprintf(stdout, "\nMerged %d shards.\nReport: %s\n        %s\nResults: %s\n", run.Settings.Shards,
		filepath.Join(dir, report.HTMLFile), filepath.Join(dir, report.MarkdownFile), filepath.Join(dir, results.JSONFile))
	return nil
}
