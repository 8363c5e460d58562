package main_test

import (
	"errors"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// TestAttach starts the database and the apps the way a user would by hand
// (the apps' own binaries, their own environment) and benches them in
// attach mode, with DATABASE_URL for the statement counts: three apps are
// sampled through -pid, the fourth is given a pid that does not exist and
// must be reported as not visible rather than measured as zero. The grpc
// app is attached as a candidate would be, name=grpc@host:port. Every raw
// file reads in vegeta's own Metrics (what `vegeta report` prints) as the
// report counts it.
func TestAttach(t *testing.T) {
	var defaults []stack.App
	for _, name := range append(stack.DefaultNames(), "grpc") {
		row, _ := stack.FindBuiltin(name)
		defaults = append(defaults, row)
	}
	dbURL, procs := startApps(t, defaults)
	var attach, pids, debugURLs []string
	for _, row := range defaults {
		name, p := row.Name, procs[row.Name]
		if row.Kind == scenario.KindGRPC {
			attach = append(attach, name+"=grpc@"+strings.TrimPrefix(p.URL, "grpc://"))
		} else {
			attach = append(attach, name+"="+p.URL)
		}
		pid := p.PID
		switch name {
		case "htmx":
			pid = 1 << 30 // beyond any pid_max: not visible; and no -debug-url
		case "graphql":
			// The public port serves no pprof: the profile fails, the run
			// does not.
			debugURLs = append(debugURLs, name+"="+p.URL)
		default:
			debugURLs = append(debugURLs, name+"="+p.DebugURL)
		}
		pids = append(pids, name+"="+strconv.Itoa(pid))
	}

	run, dir, _ := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", strings.Join(attach, ","), "-pid", strings.Join(pids, ","),
		"-profile-cpu", "-debug-url", strings.Join(debugURLs, ","),
		"-scenarios", "read-one,write", "-rate", "read-one=10,write=10",
		"-warmup", "1s", "-duration", "1s", "-cooldown", "0s", "-prime", "1s")

	if run.Environment.Mode != "attach" || run.Settings.DBMaxConns != 0 || run.Environment.Dataset["person"] != 500 {
		t.Errorf("mode %q, dbMaxConns %d, dataset %v", run.Environment.Mode, run.Settings.DBMaxConns, run.Environment.Dataset)
	}
	for _, v := range run.Validations {
		if !v.OK {
			t.Errorf("validation of %s on %s failed: %s", v.Scenario, v.App, v.Problem)
		}
	}
	if len(run.Results) != 8 {
		t.Fatalf("%d results, want 8", len(run.Results))
	}
	for _, r := range run.Results {
		checkVegetaReport(t, dir, r)
		if !r.Measured() || r.SuccessRatio != 1 {
			t.Errorf("%s %s: verdict %s, success %v: %s", r.Scenario, r.App, r.Verdict, r.SuccessRatio, r.Reason)
		}
		if !r.DB.Available || r.DB.StatementsPerRequest <= 0 || !r.DB.CPUAvailable {
			t.Errorf("%s %s: db cost %+v, want statements and CPU through DATABASE_URL", r.Scenario, r.App, r.DB)
		}
		// Profiles are taken where -debug-url gives an admin address.
		if (r.CPUProfile != nil) != (r.App == "rest" || r.App == "grpc") {
			t.Errorf("%s %s: CPU profile %+v", r.Scenario, r.App, r.CPUProfile)
		}
		switch c := r.AppCost; r.App {
		case "htmx":
			if c.Available {
				t.Errorf("htmx cost %+v from a pid that does not exist", c)
			}
		default:
			if !c.Available || c.PID != procs[r.App].PID || c.RSSMaxMB <= 0 {
				t.Errorf("%s %s: app cost %+v, want pid %d sampled", r.Scenario, r.App, c, procs[r.App].PID)
			}
		}
	}
	// The apps run on every CPU, as the runner does: each shares them with
	// it, which is said; htmx's process is not visible.
	if c := run.Settings.CPUs; c == nil || c.Isolated || c.Runner == "" || c.Apps["rest"] == "" || c.Apps["graphql"] == "" || c.Apps["htmx"] != "" {
		t.Errorf("settings.cpus = %+v, want the runner's and the visible apps' CPUs, not isolated", c)
	}
	for _, note := range []string{"htmx: CPU and RSS are unavailable", "htmx: CPU profiles are unavailable", "light-read-one-graphql: no CPU profile", "rest shared CPUs", "graphql shared CPUs"} {
		if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, note) }) {
			t.Errorf("no note says %q: %q", note, run.Notes)
		}
	}
	if run.Settings.GRPCConns != 1 || !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, "grpc: every request is a unary call") }) {
		t.Errorf("gRPC connections %d, notes %q: want 1, and a note that says so", run.Settings.GRPCConns, run.Notes)
	}
	checkAttachedStacks(t, run)
	for _, n := range run.Notes {
		if strings.Contains(n, "left behind") {
			t.Errorf("note: %s", n)
		}
	}
}

// checkAttachedStacks checks the stack facts of attached apps: never a
// start time or idle memory (the runner did not start them), the binary
// through /proc when the process is visible, and the lines from the tree
// either way.
func checkAttachedStacks(t *testing.T, run *results.Run) {
	t.Helper()
	if len(run.Stacks) != len(run.Settings.Apps) {
		t.Fatalf("stack facts of %d apps, want %d", len(run.Stacks), len(run.Settings.Apps))
	}
	for _, f := range run.Stacks {
		visible := f.App != "htmx"
		if f.Own.Go <= 0 || f.StartMs != 0 || f.IdleRSSMB != 0 || (f.BinaryBytes > 0) != visible ||
			!slices.ContainsFunc(f.Problems, func(p string) bool { return strings.Contains(p, "already running") }) ||
			slices.ContainsFunc(f.Problems, func(p string) bool { return strings.Contains(p, "-pid") }) == visible {
			t.Errorf("stack facts of %s (process visible: %v): %+v", f.App, visible, f)
		}
	}
}

// checkVegetaReport reads r's raw file into vegeta's own Metrics, what
// `vegeta report` prints, and checks that it counts what the report does:
// the requests, their statuses and success, the bytes and the latencies.
// For a grpc app that is what grpcwire answers: the HTTP equivalent of each
// call's status, and the Protobuf bytes of its answer.
func checkVegetaReport(t *testing.T, dir string, r results.Result) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, r.RawFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := vegeta.DecoderFor(f)
	if dec == nil {
		t.Fatalf("%s is not in a vegeta encoding", r.RawFile)
	}
	var m vegeta.Metrics
	for {
		var res vegeta.Result
		if err := dec.Decode(&res); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("%s: %v", r.RawFile, err)
			}
			break
		}
		m.Add(&res)
	}
	m.Close()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	if m.Requests != r.Requests || m.Success != r.SuccessRatio || !maps.Equal(m.StatusCodes, r.StatusCodes) ||
		math.Abs(m.BytesIn.Mean-r.BytesIn) > 1e-9 || math.Abs(m.BytesOut.Mean-r.BytesOut) > 1e-9 ||
		math.Abs(ms(m.Latencies.Max)-r.Latency.Max) > 1e-6 || math.Abs(ms(m.Latencies.Mean)-r.Latency.Mean) > 1e-3 {
		t.Errorf("%s %s: vegeta report reads %d requests, success %v, codes %v, bytes in %.1f out %.1f, latency max %v mean %v; the report has %d, %v, %v, %.1f, %.1f, %v ms, %v ms",
			r.Scenario, r.App, m.Requests, m.Success, m.StatusCodes, m.BytesIn.Mean, m.BytesOut.Mean, m.Latencies.Max, m.Latencies.Mean,
			r.Requests, r.SuccessRatio, r.StatusCodes, r.BytesIn, r.BytesOut, r.Latency.Max, r.Latency.Mean)
	}
	if r.App == "grpc" && (r.BytesIn <= 0 || r.StatusCodes["200"] != int(r.Requests)) {
		t.Errorf("grpc %s: %.1f bytes in, codes %v; want Protobuf bytes and 200 for every call", r.Scenario, r.BytesIn, r.StatusCodes)
	}
}
