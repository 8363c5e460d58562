package main_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/report"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// e2eScenarios are the scenarios of the smoke run: every kind of request
// (mixed only recombines them).
var e2eScenarios = []string{"read-one", "read-small", "read-many", "write", "control"}

// e2eRate is low enough for a shared 2-core machine and high enough that
// every app spends measurable CPU in a 2 s window.
const e2eRate = 10

// TestEndToEnd runs the bench as a user does, in its embedded mode: a
// throwaway PostgreSQL, the three apps built and started as processes, every
// scenario validated, measured at a tiny rate and reported. It then checks
// that results.json is complete and its numbers plausible.
func TestEndToEnd(t *testing.T) {
	var rates []string
	for _, s := range e2eScenarios {
		rates = append(rates, s+"="+strconv.Itoa(e2eRate))
	}
	run, dir, console := runBench(t, []string{"DATABASE_URL="}, // embedded mode whatever the caller has set
		"-scenarios", strings.Join(e2eScenarios, ","),
		"-rate", strings.Join(rates, ","),
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-profile-cpu")

	for _, f := range []string{report.MarkdownFile, report.HTMLFile} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	if !strings.Contains(console, "Profile light") {
		t.Error("the console shows no summary table")
	}

	checkFilled(t, run)
	checkRun(t, run)
	checkStacks(t, run)
	for _, r := range run.Results {
		t.Run(r.Scenario+"/"+r.App, func(t *testing.T) {
			checkResult(t, dir, r)
			checkTimeline(t, r, 2)
			checkProfile(t, dir, r)
		})
	}
}

var (
	buildOnce sync.Once
	benchBin  string
	buildErr  error
)

// runBench runs the bench with args and the extra environment, and returns
// the results.json it wrote, its folder and the console output.
func runBench(t *testing.T, env []string, args ...string) (*results.Run, string, string) {
	t.Helper()
	out := t.TempDir()
	console, err := execBench(t, env, append(args, "-out", out)...)
	if err != nil {
		t.Fatalf("bench: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*", results.JSONFile))
	if len(files) != 1 {
		t.Fatalf("want one results folder under -out, found %v", files)
	}
	run, err := results.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return run, filepath.Dir(files[0]), console
}

// execBench builds the bench (once), runs it with args and the extra
// environment, and returns its console output and how it exited.
func execBench(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(benchBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	console, err := cmd.CombinedOutput()
	t.Logf("bench output:\n%s", console)
	return string(console), err
}

// benchBinary builds the bench once and returns its path.
func benchBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "crudbench-bench-test-")
		if err != nil {
			buildErr = err
			return
		}
		benchBin = filepath.Join(dir, "bench")
		if out, err := exec.Command("go", "build", "-o", benchBin, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./bench: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return benchBin
}

// mayBeZero lists the fields that are legitimately zero or empty in this
// run, by path suffix: the run asks for no cool-down, a problem or reason
// only explains a failure or a verdict other than ok, the default apps
// differ from nothing, repeats exist only
// with -repeat > 1, capacities only with -capacity (TestCapacity), shards only in a merged run, replicas only
// for an app run as several (TestReplicas), a GET sends no body and a site's 303 has none, the
// health check runs no SQL (nor takes a pool connection), and the runner's
// own CPU comes from getrusage, not from the sampler whose resolution and
// source are recorded.
func mayBeZero(path string, r *results.Result) bool {
	for _, s := range []string{".Cooldown", ".Problem", ".Reason", ".Difference", ".Repeats", ".Spread", ".Errors", ".Runner.CPUResolutionMsPerRequest", ".Runner.Source", ".Capacities", ".Shards", ".Replicas"} {
		if strings.HasSuffix(path, s) {
			return true
		}
	}
	// Only a run bench merge made counts shards (TestShards checks it).
	if strings.HasSuffix(path, ".Settings.Shards") {
		return true
	}
	// Checked on their own (checkStacks, checkTimeline, checkProfile),
	// where a zero has a meaning: a second's start at 0, a layer the
	// app did not reach, an app without generated code, no problems.
	for _, s := range []string{"run.Stacks", ".Timeline", ".CPUProfile"} {
		if strings.Contains(path, s) {
			return true
		}
	}
	if r == nil {
		return false
	}
	post := r.Scenario == "write" || (r.App == "graphql" && r.Scenario != "control")
	if strings.HasSuffix(path, ".BytesOut") && !post {
		return true
	}
	if strings.HasSuffix(path, ".BytesIn") && r.Scenario == "write" && r.App == "htmx" {
		return true
	}
	if r.Scenario == "control" && (strings.HasSuffix(path, ".StatementsPerRequest") || strings.HasSuffix(path, ".DB.Statements")) {
		return true
	}
	// The health check takes no connection from the pool.
	if r.Scenario == "control" && strings.Contains(path, ".Pool.") && !strings.HasSuffix(path, ".MaxConns") {
		return true
	}
	// PostgreSQL's reaped backends count in 10 ms ticks, truncated: one
	// that exits in a 2 s window at 10 req/s can take the window's
	// difference down to nothing.
	if strings.Contains(path, ".DB.CPU") {
		return true
	}
	return false
}

// checkPool checks the pool figures read from the app's metrics: its size,
// and for a request that takes a connection, acquisitions (pgxpool counts
// the time of every one, idle connection or not) and their wait.
func checkPool(t *testing.T, r results.Result, maxConns int) {
	t.Helper()
	p := r.AppCost.Pool
	switch {
	case p == nil:
		t.Errorf("no pool figures")
	case p.MaxConns != maxConns:
		t.Errorf("pool of %d connections, want %d", p.MaxConns, maxConns)
	case r.Scenario != "control" && (p.Acquires == 0 || p.AcquireWaitSeconds <= 0 || p.WaitMsPerRequest <= 0):
		t.Errorf("pool %+v, want acquisitions and their wait", *p)
	}
}

// checkFilled walks results.json's structure and reports every field left
// at its zero value that has no reason to be.
func checkFilled(t *testing.T, run *results.Run) {
	t.Helper()
	var walk func(path string, v reflect.Value, r *results.Result)
	walk = func(path string, v reflect.Value, r *results.Result) {
		if mayBeZero(path, r) {
			return
		}
		switch v.Kind() {
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(time.Time{}) {
				if v.Interface().(time.Time).IsZero() {
					t.Errorf("%s is not filled", path)
				}
				return
			}
			for i := range v.NumField() {
				walk(path+"."+v.Type().Field(i).Name, v.Field(i), r)
			}
		case reflect.Slice, reflect.Map:
			if v.Len() == 0 {
				t.Errorf("%s is empty", path)
			}
			if v.Kind() == reflect.Slice {
				for i := range v.Len() {
					el := r
					if res, ok := v.Index(i).Interface().(results.Result); ok {
						el = &res
					}
					walk(path+"["+strconv.Itoa(i)+"]", v.Index(i), el)
				}
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(path, v.Elem(), r)
			}
		default:
			if v.IsZero() {
				t.Errorf("%s is not filled", path)
			}
		}
	}
	walk("run", reflect.ValueOf(*run), nil)
}

func checkRun(t *testing.T, run *results.Run) {
	t.Helper()
	env := run.Environment
	if env.Mode != "embedded" || env.Dataset["person"] != 500 || env.CPUCount < 1 || !strings.HasPrefix(env.GoVersion, "go") {
		t.Errorf("environment %+v", env)
	}
	if !run.FinishedAt.After(run.StartedAt) {
		t.Errorf("finished %v before it started %v", run.FinishedAt, run.StartedAt)
	}
	s := run.Settings
	if time.Duration(s.Duration) != 2*time.Second || time.Duration(s.Warmup) != time.Second || s.MaxConnections != 100 ||
		s.Repeat != 1 || s.DBMaxConns != 20 || !slices.Equal(s.Scenarios, e2eScenarios) || s.Rates["light"]["write"] != e2eRate {
		t.Errorf("settings %+v", s)
	}
	wantApps := []results.App{{Name: "rest", Kind: "rest"}, {Name: "graphql", Kind: "graphql"}, {Name: "htmx", Kind: "site"}}
	if !reflect.DeepEqual(s.AppInfo, wantApps) {
		t.Errorf("app info %+v, want %+v", s.AppInfo, wantApps)
	}
	if len(run.Validations) != len(e2eScenarios)*3 {
		t.Errorf("%d validations, want %d", len(run.Validations), len(e2eScenarios)*3)
	}
	for _, v := range run.Validations {
		if !v.OK {
			t.Errorf("validation of %s on %s failed: %s", v.Scenario, v.App, v.Problem)
		}
	}
	if len(run.Results) != len(e2eScenarios)*3 {
		t.Errorf("%d results, want %d", len(run.Results), len(e2eScenarios)*3)
	}
	if c := run.Runner; !c.Available || c.CPUMean <= 0 || c.RSSMaxMB <= 0 || c.CPUMsPerRequest <= 0 {
		t.Errorf("runner cost %+v", c)
	}
	if run.SamplerOverhead <= 0 || run.SamplerOverhead > 0.02 {
		t.Errorf("sampler overhead %.4f of a core", run.SamplerOverhead)
	}
	for _, n := range run.Notes {
		if strings.Contains(n, "left behind") || strings.Contains(n, "unavailable") {
			t.Errorf("note: %s", n)
		}
	}
}

// stmtBounds are the SQL statements per request each scenario may cost:
// the nested read is four statements through the store (person,
// appointments, stipends, fundings) and at most one more through GraphQL's
// dataloaders; a write step averages two (create 1; update with its
// transaction 4; delete 1).
func stmtBounds(r results.Result) (lo, hi float64) {
	switch r.Scenario {
	case "read-one":
		if r.App == "graphql" {
			return 4, 5
		}
		return 4, 4
	case "read-small", "read-many":
		return 1, 2
	case "write":
		return 1.5, 3
	}
	return 0, 0
}

// rounding absorbs floating-point rounding in the rates' bounds.
const rounding = 1e-9

// checkRates bounds a run's achieved rate and throughput by what the run
// itself measured. Both are measured from the window's schedule, and
// vegeta never sends a request before it is due, so neither can exceed
// the target however a busy machine stalls the load generator (a burst
// that catches up is not a higher rate). How far under the target they
// fall is the machine's doing, not the bench's: the lower bound ties them
// together instead. The throughput's span ends at the last answer, which
// leaves at most the slowest latency after the sending span ends.
func checkRates(t *testing.T, name string, r results.Result) {
	t.Helper()
	if r.AchievedRate <= 0 || r.AchievedRate > r.TargetRate*(1+rounding) {
		t.Errorf("%s: achieved rate %.4f, want above zero and at most the target %.2f", name, r.AchievedRate, r.TargetRate)
		return
	}
	lo := float64(successes(r)) / (float64(r.Requests)/r.AchievedRate + r.Latency.Max/1000)
	if r.Throughput < lo*(1-rounding) || r.Throughput > r.TargetRate*(1+rounding) {
		t.Errorf("%s: throughput %.4f, want from %.4f (the sending span plus the slowest answer) to the target %.2f", name, r.Throughput, lo, r.TargetRate)
	}
}

// successes is how many of a run's requests succeeded.
func successes(r results.Result) uint64 {
	return uint64(math.Round(float64(r.Requests) * r.SuccessRatio))
}

func checkResult(t *testing.T, dir string, r results.Result) {
	// What no timing can move: the window holds exactly rate × duration
	// requests, and every one of them succeeds.
	if r.Requests != 2*e2eRate || r.SuccessRatio != 1 || len(r.Errors) != 0 {
		t.Errorf("requests %d, success %v, errors %q; want %d, 1, none", r.Requests, r.SuccessRatio, r.Errors, 2*e2eRate)
	}
	checkRates(t, r.App, r)
	// Every request succeeded, so only a late tail can make a run
	// saturated or slow, and the verdict must say which it was.
	checkVerdict(t, r, results.DefaultSLOP99)
	l := r.Latency
	if !(0 < l.P50 && l.P50 <= l.P90 && l.P90 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.Max && l.Mean <= l.Max) {
		t.Errorf("latencies out of order: %+v", l)
	}
	c := r.AppCost
	if !c.Available || c.PID <= 0 || c.RSSMeanMB <= 0 || c.RSSMaxMB < c.RSSMeanMB || c.CPUMax < c.CPUMean {
		t.Errorf("app cost %+v", c)
	}
	// An app's CPU clock never goes back and counts a thread's time at
	// every context switch: an app that answered requests in the window,
	// even only health checks, has spent CPU there, however busy the
	// machine (only what a thread on a CPU did since the last scheduler
	// tick may be missing: CPUResolutionMsPerRequest).
	if c.CPUMean <= 0 || c.CPUMsPerRequest <= 0 || c.CPUResolutionMsPerRequest <= 0 {
		t.Errorf("app CPU %.4f (%.4f ms per request, resolution %.4f ms), want all above zero", c.CPUMean, c.CPUMsPerRequest, c.CPUResolutionMsPerRequest)
	}
	checkPool(t, r, 20)
	if c.Source != results.SourceProc {
		t.Errorf("app cost source %q, want %q: the runner started the app and sees its process", c.Source, results.SourceProc)
	}
	if !r.DB.Available || !r.DB.CPUAvailable || r.DB.RSSMeanMB <= 0 {
		t.Errorf("db cost %+v", r.DB)
	}
	if lo, hi := stmtBounds(r); r.DB.StatementsPerRequest < lo || r.DB.StatementsPerRequest > hi {
		t.Errorf("%.2f SQL statements per request, want %v to %v", r.DB.StatementsPerRequest, lo, hi)
	}

	// The raw file is vegeta's: it decodes to the measured requests,
	// numbered 0 to n-1 (vegeta plot waits for number 0; results are
	// written as they complete, so in any order), and its timings agree
	// with the figures above. The first request left no earlier than it
	// was due, so the raw spans from it are no longer than the spans the
	// rates are computed over.
	f, err := os.Open(filepath.Join(dir, r.RawFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := vegeta.DecoderFor(f)
	if dec == nil {
		t.Fatalf("%s is not in a vegeta encoding", r.RawFile)
	}
	var n uint64
	seen := make([]bool, r.Requests)
	var firstSent, lastSent, lastEnd time.Time
	var slowest time.Duration
	for ; ; n++ {
		var res vegeta.Result
		if err := dec.Decode(&res); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("%s: %v", r.RawFile, err)
			}
			break
		}
		if res.Seq >= r.Requests || seen[res.Seq] {
			t.Errorf("%s: sequence number %d twice or beyond %d", r.RawFile, res.Seq, r.Requests)
		} else {
			seen[res.Seq] = true
		}
		if n == 0 || res.Timestamp.Before(firstSent) {
			firstSent = res.Timestamp
		}
		lastSent, lastEnd, slowest = maxTime(lastSent, res.Timestamp), maxTime(lastEnd, res.End()), max(slowest, res.Latency)
	}
	if n != r.Requests {
		t.Errorf("%s holds %d results, want %d", r.RawFile, n, r.Requests)
	}
	interval := time.Second / e2eRate
	if hi := float64(n) / (lastSent.Sub(firstSent) + interval).Seconds(); r.AchievedRate > hi*(1+rounding) {
		t.Errorf("achieved rate %.4f, but the raw file's requests took the time of %.4f/s", r.AchievedRate, hi)
	}
	if hi := float64(successes(r)) / lastEnd.Sub(firstSent).Seconds(); r.Throughput > hi*(1+rounding) {
		t.Errorf("throughput %.4f, but the raw file's answers took the time of %.4f/s", r.Throughput, hi)
	}
	if want := float64(slowest) / float64(time.Millisecond); r.Latency.Max != want {
		t.Errorf("latency max %v ms, the raw file's slowest answer took %v ms", r.Latency.Max, want)
	}
	// A header and a sample every 100 ms for the app, every second for
	// PostgreSQL, over the 3 s of the run.
	if lines := countLines(t, filepath.Join(dir, r.SamplesFile)); lines < 25 {
		t.Errorf("%s has %d lines", r.SamplesFile, lines)
	}
	db := strings.TrimSuffix(r.SamplesFile, ".csv") + ".postgres.csv"
	if lines := countLines(t, filepath.Join(dir, db)); lines < 3 {
		t.Errorf("%s has %d lines", db, lines)
	}
}

// checkStacks checks the stack facts of the apps the runner built and
// started: every one measured, in the order of the apps.
func checkStacks(t *testing.T, run *results.Run) {
	t.Helper()
	var apps []string
	for _, f := range run.Stacks {
		apps = append(apps, f.App)
		if f.BinaryBytes <= 0 || f.StartMs <= 0 || f.IdleRSSMB <= 0 || f.Own.Go <= 0 || f.Shared.Go <= 0 ||
			f.TotalModules < f.DirectModules || f.DirectModules <= 0 || len(f.Problems) > 0 {
			t.Errorf("stack facts of %s: %+v", f.App, f)
		}
	}
	if !slices.Equal(apps, run.Settings.Apps) {
		t.Errorf("stack facts of %v, want %v", apps, run.Settings.Apps)
	}
}

// checkAttachedStacks checks the stack facts of attached apps: never a
// start time or idle memory (the runner did not start them), the binary
// through /proc when the process is visible, and the lines from the tree
// either way.
func checkAttachedStacks(t *testing.T, run *results.Run) {
	t.Helper()
	if len(run.Stacks) != len(stack.DefaultNames()) {
		t.Fatalf("stack facts of %d apps, want %d", len(run.Stacks), len(stack.DefaultNames()))
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

// checkTimeline checks that the timeline has one entry per second of the
// measured window, and that its seconds add up to the window: every
// request belongs to the second it was due in, whenever it was sent.
func checkTimeline(t *testing.T, r results.Result, seconds int) {
	t.Helper()
	if len(r.Timeline) != seconds {
		t.Fatalf("timeline of %d seconds, want %d", len(r.Timeline), seconds)
	}
	var requests, successes int
	for i, s := range r.Timeline {
		requests, successes = requests+s.Requests, successes+s.Successes
		if s.At != float64(i) || s.Requests != e2eRate || s.P50 <= 0 || s.P50 > s.P99 || s.P99 > r.Latency.Max {
			t.Errorf("second %d: %+v (latency max %v ms)", i, s, r.Latency.Max)
		}
	}
	if uint64(requests) != r.Requests || float64(successes) != float64(r.Requests)*r.SuccessRatio {
		t.Errorf("the timeline holds %d requests, %d successes; the window %d, %v", requests, successes, r.Requests, r.SuccessRatio)
	}
}

// checkProfile checks the run's CPU profile: the file opens with go tool
// pprof, and the layers share out all the CPU its samples hold.
func checkProfile(t *testing.T, dir string, r results.Result) {
	t.Helper()
	p := r.CPUProfile
	if p == nil {
		t.Fatal("no CPU profile")
	}
	// The profile's own clock: 2 s asked for, give or take the handler's
	// start and stop on a busy machine.
	if p.Seconds < 1.9 || p.Seconds > 3 || !strings.HasPrefix(p.File, "profiles/") {
		t.Errorf("profile of %v s in %q, want 2 s under profiles/", p.Seconds, p.File)
	}
	if out, err := exec.Command("go", "tool", "pprof", "-top", filepath.Join(dir, p.File)).CombinedOutput(); err != nil {
		t.Errorf("go tool pprof -top %s: %v\n%s", p.File, err, out)
	}
	var sum float64
	for i, l := range p.Layers {
		sum += l.Share
		if l.Layer != results.Layers[i] {
			t.Errorf("layer %d is %s, want %s", i, l.Layer, results.Layers[i])
		}
	}
	// An app that spent no CPU in the samples' 10 ms steps has a profile
	// without samples, and no shares; every read of all persons costs
	// several milliseconds, 40 of them many samples.
	switch {
	case p.CPUSeconds > 0 && math.Abs(sum-1) > 0.001:
		t.Errorf("layer shares add up to %v, want 1: %+v", sum, p.Layers)
	case p.CPUSeconds == 0 && (sum != 0 || r.Scenario == "read-many"):
		t.Errorf("a profile without samples (%v CPU s), shares %+v", p.CPUSeconds, p.Layers)
	}
}

// checkVerdict checks that a run every request of which succeeded has the
// verdict its numbers give: saturated when it did not hold the rate,
// slow when it held it over the SLO, ok otherwise. Only a late tail on a
// busy machine makes it anything but ok, and that is logged.
func checkVerdict(t *testing.T, r results.Result, slo time.Duration) {
	t.Helper()
	want := results.VerdictOK
	switch {
	case r.Throughput < results.MinThroughputShare*r.TargetRate:
		want = results.VerdictSaturated
	case r.Latency.P99 > float64(slo)/float64(time.Millisecond):
		want = results.VerdictSlow
	}
	if r.Verdict != want {
		t.Errorf("verdict %s (%s) for a throughput of %.2f/s at a target of %.2f/s and a p99 of %.1f ms; want %s",
			r.Verdict, r.Reason, r.Throughput, r.TargetRate, r.Latency.P99, want)
	} else if want != results.VerdictOK {
		t.Logf("verdict %s: %s (a late tail in a short window on a busy machine)", r.Verdict, r.Reason)
	}
}

// maxTime is the later of a and b.
func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
	}
	return n
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchBin != "" {
		os.RemoveAll(filepath.Dir(benchBin))
	}
	os.Exit(code)
}

// TestAttach starts the database and the apps the way a user would by hand
// (the apps' own binaries, their own environment) and benches them in
// attach mode, with DATABASE_URL for the statement counts: two apps are
// sampled through -pid, the third is given a pid that does not exist and
// must be reported as not visible rather than measured as zero.
func TestAttach(t *testing.T) {
	var defaults []stack.App
	for _, name := range stack.DefaultNames() {
		row, _ := stack.FindBuiltin(name)
		defaults = append(defaults, row)
	}
	dbURL, procs := startApps(t, defaults)
	var attach, pids, debugURLs []string
	for _, row := range defaults {
		name, p := row.Name, procs[row.Name]
		attach = append(attach, name+"="+p.URL)
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

	run, _, _ := runBench(t, []string{"DATABASE_URL=" + dbURL},
		"-attach", strings.Join(attach, ","), "-pid", strings.Join(pids, ","),
		"-profile-cpu", "-debug-url", strings.Join(debugURLs, ","),
		"-scenarios", "read-one,write", "-rate", "read-one=10,write=10",
		"-warmup", "1s", "-duration", "1s", "-cooldown", "0s")

	if run.Environment.Mode != "attach" || run.Settings.DBMaxConns != 0 || run.Environment.Dataset["person"] != 500 {
		t.Errorf("mode %q, dbMaxConns %d, dataset %v", run.Environment.Mode, run.Settings.DBMaxConns, run.Environment.Dataset)
	}
	for _, v := range run.Validations {
		if !v.OK {
			t.Errorf("validation of %s on %s failed: %s", v.Scenario, v.App, v.Problem)
		}
	}
	if len(run.Results) != 6 {
		t.Fatalf("%d results, want 6", len(run.Results))
	}
	for _, r := range run.Results {
		if !r.Measured() || r.SuccessRatio != 1 {
			t.Errorf("%s %s: verdict %s, success %v: %s", r.Scenario, r.App, r.Verdict, r.SuccessRatio, r.Reason)
		}
		if !r.DB.Available || r.DB.StatementsPerRequest <= 0 || !r.DB.CPUAvailable {
			t.Errorf("%s %s: db cost %+v, want statements and CPU through DATABASE_URL", r.Scenario, r.App, r.DB)
		}
		// Profiles are taken where -debug-url gives an admin address.
		if (r.CPUProfile != nil) != (r.App == "rest") {
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
	checkAttachedStacks(t, run)
	for _, n := range run.Notes {
		if strings.Contains(n, "left behind") {
			t.Errorf("note: %s", n)
		}
	}
}
