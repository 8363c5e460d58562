// Command bench measures the crudbench apps, or any server that meets the
// contract of their kind, at constant request rates and writes a report a
// person can read and a program can parse:
//
//	go run ./bench                         # light profile, throwaway database, the default apps
//	go run ./bench -profiles all           # light, medium and high (~20 min)
//	go run ./bench -capacity -scenarios read-one,read-small   # capacities within the SLO (~10 min)
//	go run ./bench -attach rest=http://localhost:8081,graphql=http://localhost:8082,htmx=http://localhost:8083
//	go run ./bench -validate-only -attach candidate=rest@http://10.0.0.5:8080   # conformance only
//	go run ./bench merge results/20260101-120000 other-host-results/20260101-120000   # join a sharded run
//	go run ./bench diff results/20260101-120000 results/20260102-090000   # what changed, and is it noise
//
// Run it with -h for every flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"crudbench/bench/config"
	"crudbench/bench/report"
	"crudbench/bench/results"
	"crudbench/bench/runner"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first Ctrl-C the runner stops and cleans up; a second
		// one ends the process at once (its children die with it).
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errRegressed):
		os.Exit(1) // the comparison has said which runs regressed
	case err != nil:
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// run runs `bench merge` or `bench diff` when args start with their
// name; otherwise it parses the flags, benchmarks, writes the reports
// into the results folder and prints the summary. A run interrupted by
// ctx still writes the reports of what it measured, then returns the
// interruption.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return mergeCommand(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "diff" {
		return diffCommand(args[1:], stdout, stderr)
	}
	cfg, err := config.Parse(args, getenv, stderr)
	if err != nil {
		return err
	}
	if cfg.ValidateOnly {
		return validate(ctx, cfg, stdout)
	}
	res, dir, err := runner.Run(ctx, cfg, stdout)
	if res == nil {
		return err
	}
	if werr := writeReports(dir, res); werr != nil {
		return errors.Join(err, werr)
	}
	report.Summary(stdout, res)
	fmt.Fprintf(stdout, "\nReport: %s\n        %s\nResults: %s\n",
		filepath.Join(dir, report.HTMLFile), filepath.Join(dir, report.MarkdownFile), filepath.Join(dir, results.JSONFile))
	return err
}

// writeReports writes results.json and the reports of run into dir, each
// attempted even when another fails.
func writeReports(dir string, run *results.Run) error {
	return errors.Join(results.Write(dir, run), report.Write(dir, run))
}

// validate checks every scenario on every app (-validate-only), which the
// runner prints app by app, and fails when any check failed.
func validate(ctx context.Context, cfg config.Config, stdout io.Writer) error {
	vs, dir, err := runner.Validate(ctx, cfg, stdout)
	if dir != "" {
		fmt.Fprintf(stdout, "\nLogs: %s\n", filepath.Join(dir, results.LogsDir))
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, v := range vs {
		if !v.OK {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("validation failed: %d of %d checks (scenario × app)", failed, len(vs))
	}
	fmt.Fprintf(stdout, "\nEvery scenario passed on every app (%d checks).\n", len(vs))
	return nil
}
