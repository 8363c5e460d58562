package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"crudbench/bench/diff"
	"crudbench/bench/results"
)

const diffUsage = `Usage: go run ./bench diff [flags] OLD NEW

Compares two results folders (or their results.json) run by run: throughput,
p50, p99, the app's CPU per request and RSS, and capacities. With three or
more repeats on each side (-repeat) every change is tested for
significance, and a change the test cannot tell from noise is shown as ~.
Exits with status 1 when a run regressed past -threshold, so CI can use it.
Runs whose load was sent differently (-model open and closed, or closed
loops of different -clients) are not compared: that is an error.

`

// errRegressed is what diffCommand returns when a run regressed: the
// report has said which, so main only sets the exit status.
var errRegressed = errors.New("diff: regressed")

// diffCommand runs `bench diff`.
func diffCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opt := diff.DefaultOptions
	fs.Float64Var(&opt.Alpha, "alpha", opt.Alpha, "significance level of the test")
	fs.Float64Var(&opt.Threshold, "threshold", opt.Threshold, "relative change for the worse that is a regression (0.1 = 10%)")
	fs.StringVar(&opt.Test, "test", opt.Test, "significance test: u (Mann–Whitney U, benchstat's; needs 4+ repeats a side at α 0.05) or t (Welch's t-test, from 3)")
	format := fs.String("format", "text", "output: text or markdown")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), diffUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 2:
		fs.Usage()
		return errors.New("diff: name two results folders, OLD and NEW")
	case opt.Test != diff.TestU && opt.Test != diff.TestT:
		return fmt.Errorf("diff: -test %q: want u or t", opt.Test)
	case opt.Alpha <= 0 || opt.Alpha >= 1:
		return fmt.Errorf("diff: -alpha %v: want between 0 and 1", opt.Alpha)
	case opt.Threshold < 0:
		return fmt.Errorf("diff: -threshold %v: want 0 or more", opt.Threshold)
	case *format != "text" && *format != "markdown":
		return fmt.Errorf("diff: -format %q: want text or markdown", *format)
	}
	old, err := readRun(fs.Arg(0))
	if err != nil {
		return err
	}
	new, err := readRun(fs.Arg(1))
	if err != nil {
		return err
	}
	if err := diff.Comparable(old, new); err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	rep := diff.Compare(old, new, opt)
	write := rep.WriteText
	if *format == "markdown" {
		write = rep.WriteMarkdown
	}
	if err := write(stdout, fs.Arg(0), fs.Arg(1)); err != nil {
		return err
	}
	if len(rep.Regressions()) > 0 {
		return errRegressed
	}
	return nil
}

// readRun reads the results.json of a results folder, or the file named.
func readRun(path string) (*results.Run, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, results.JSONFile)
	}
	run, err := results.Read(path)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	return run, nil
}
