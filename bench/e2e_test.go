package main_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/bench/report"
	"crudbench/bench/results"
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
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "1s", "-profile-cpu")

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

// mayBeZero lists the fields that are legitimately zero or empty in this
// run, by path suffix: the run asks for no cool-down, a problem or reason
// only explains a failure or a verdict other than ok, the default apps
// differ from nothing, repeats exist only
// with -repeat > 1, capacities only with -capacity (TestCapacity), shards only in a merged run, replicas only
// for an app run as several (TestReplicas), tree sums only for an app
// that forks workers (TestNodeApps), a GET sends no body and a site's 303 has none, the
// health check runs no SQL (nor takes a pool connection), and the runner's
// own CPU comes from getrusage, not from the sampler whose resolution and
// source are recorded.
func mayBeZero(path string, r *results.Result) bool {
	for _, s := range []string{".Cooldown", ".Problem", ".Reason", ".Difference", ".Repeats", ".Spread", ".Errors", ".Runner.CPUResolutionMsPerRequest", ".Runner.Source", ".Capacities", ".Shards", ".Replicas", ".Tree"} {
		if strings.HasSuffix(path, s) {
			return true
		}
	}
	// Only a run bench merge made counts shards (TestShards checks it),
	// and only a run that measures a grpc app its connections (TestAttach),
	// an amqp app its, its broker and the broker's CPUs (TestAMQP).
	if strings.HasSuffix(path, ".Settings.Shards") || strings.HasSuffix(path, ".Settings.GRPCConns") || strings.HasSuffix(path, ".Settings.AMQPConns") ||
		strings.HasSuffix(path, ".Environment.Broker") || strings.HasSuffix(path, ".Settings.CPUs.Broker") {
		return true
	}
	// Only a run of page scenarios views pages (TestPages checks them).
	if path == "run.Pages" {
		return true
	}
	// Only a closed loop (-model closed) runs clients: every run that
	// checks its fields is an open one.
	if strings.HasSuffix(path, ".Settings.Clients") {
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
	// A window in which the collector did not run paused for nothing: the
	// figures are read (GC is set), and may be zero.
	if strings.Contains(path, ".Pauses.GC.") {
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
	if time.Duration(s.Duration) != 2*time.Second || time.Duration(s.Warmup) != time.Second || time.Duration(s.Prime) != time.Second || s.MaxConnections != 100 ||
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
	// Measured and sane: the 1% goal is a performance target, checked by
	// sampler.BenchmarkSample and flagged by every report, not here.
	if run.SamplerOverhead <= 0 || run.SamplerOverhead > 0.1 {
		t.Errorf("sampler overhead %.4f of a core, want in (0, 0.1)", run.SamplerOverhead)
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
	checkSampleTimes(t, filepath.Join(dir, r.SamplesFile), 3*time.Second)
	db := strings.TrimSuffix(r.SamplesFile, ".csv") + ".postgres.csv"
	if lines := countLines(t, filepath.Join(dir, db)); lines < 3 {
		t.Errorf("%s has %d lines", db, lines)
	}
}

// checkSampleTimes checks the app's samples of a run of length d: taken
// in order from the sampler's start through the run's end, never more
// often than the sampling interval (100 ms; the last, at the stop, may
// come sooner), none a second or more after the one before it, over
// which CPU rates are computed. How many there are is the machine's to
// move: a ticker that fires late drops the ticks it missed, and a loaded
// machine's sampler misses some (24 lines where an idle one writes 32).
func checkSampleTimes(t *testing.T, path string, d time.Duration) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "t_seconds,") {
		t.Errorf("%s: %d lines, want a header and at least two samples", path, len(lines))
		return
	}
	var at []float64
	for _, line := range lines[1:] {
		v, err := strconv.ParseFloat(strings.Split(line, ",")[0], 64)
		if err != nil {
			t.Errorf("%s: %q: %v", path, line, err)
			return
		}
		at = append(at, v)
	}
	const interval = 0.1
	span := at[len(at)-1] - at[0]
	if at[len(at)-1] < d.Seconds() {
		t.Errorf("%s: the last sample at %.3f s, before the run's end at %v", path, at[len(at)-1], d)
	}
	if most := int(span/interval) + 2; len(at) > most {
		t.Errorf("%s: %d samples in %.3f s, more than one per %v s allows (%d)", path, len(at), span, interval, most)
	}
	for i := 1; i < len(at); i++ {
		if gap := at[i] - at[i-1]; gap < 0 || gap >= 1 {
			t.Errorf("%s: sample %d at %.3f s, %.3f s after the one before it", path, i, at[i], gap)
		}
	}
}

// checkStacks checks the stack facts of the apps the runner built and
// started: every one measured, in the order of the apps, whatever its
// toolchain.
func checkStacks(t *testing.T, run *results.Run) {
	t.Helper()
	var apps []string
	for _, f := range run.Stacks {
		apps = append(apps, f.App)
		// A Go app deploys its binary, a Node.js app its folder.
		deployed := max(f.BinaryBytes, f.DeployedBytes)
		if deployed <= 0 || f.StartMs <= 0 || f.IdleRSSMB <= 0 || f.Own.Code() <= 0 || f.Shared == (results.Lines{}) ||
			f.TotalModules < f.DirectModules || f.DirectModules <= 0 || f.Runtime == "" || f.RuntimeVersion == "" ||
			len(f.Frameworks) == 0 || len(f.Problems) > 0 {
			t.Errorf("stack facts of %s: %+v", f.App, f)
		}
	}
	if !slices.Equal(apps, run.Settings.Apps) {
		t.Errorf("stack facts of %v, want %v", apps, run.Settings.Apps)
	}
}
