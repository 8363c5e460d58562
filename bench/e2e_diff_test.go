package main_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// TestDiff compares a real results folder of four repeats with itself
// and with a copy whose p99s are all longer than the slowest before: no
// change and exit status 0, then a significant regression and exit
// status 1.
func TestDiff(t *testing.T) {
	row, _ := stack.FindBuiltin("rest")
	dbURL, procs := startApps(t, []stack.App{row})
	app := procs["rest"]
	run, dir, _ := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", "rest="+app.URL, "-pid", "rest="+strconv.Itoa(app.PID),
		"-scenarios", "read-one", "-rate", "read-one=50", "-repeat", "4",
		"-warmup", "1s", "-duration", "1s", "-cooldown", "0s", "-prime", "1s", "-slo-p99", "1s")
	if len(run.Results) != 1 || len(run.Results[0].Repeats) != 4 {
		t.Fatalf("want one result of four repeats, got %+v", run.Results)
	}
	for _, s := range run.Results[0].Repeats {
		if s.CPUMsPerRequest <= 0 {
			t.Errorf("a repeat's CPU per request is %v, want it recorded", s.CPUMsPerRequest)
		}
	}

	same, err := execBench(t, nil, "diff", dir, dir)
	if err != nil {
		t.Errorf("bench diff of a folder with itself: %v", err)
	}
	for _, want := range []string{"throughput (req/s)", "p99 (ms)", "app CPU per request (CPU-ms)", "light · read-one · rest", "~", "p=1.000 n=4+4 (U test)", "No regression past 10%."} {
		if !strings.Contains(same, want) {
			t.Errorf("bench diff of a folder with itself does not say %q", want)
		}
	}

	// The same run, with every p99 longer by twice the slowest repeat's:
	// each new p99 is above every old one, however the repeats spread.
	slower := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(dir, results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	res := doc["results"].([]any)[0].(map[string]any)
	shift := 0.0
	for _, rep := range res["repeats"].([]any) {
		shift = max(shift, 2*rep.(map[string]any)["p99Ms"].(float64))
	}
	res["latency"].(map[string]any)["p99Ms"] = shift + res["latency"].(map[string]any)["p99Ms"].(float64)
	for _, rep := range res["repeats"].([]any) {
		rep.(map[string]any)["p99Ms"] = shift + rep.(map[string]any)["p99Ms"].(float64)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(slower, results.JSONFile), js, 0o644); err != nil {
		t.Fatal(err)
	}
	worse, err := execBench(t, nil, "diff", "-format", "markdown", dir, slower)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("bench diff of a regressed run exited with %v, want exit status 1", err)
	}
	for _, want := range []string{"### p99 (ms)", "p=0.029 n=4+4 (U test) regressed", "1 regression(s) past 10%: light · read-one · rest: p99 +"} {
		if !strings.Contains(worse, want) {
			t.Errorf("bench diff of a regressed run does not say %q", want)
		}
	}
}
