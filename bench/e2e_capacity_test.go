package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/capacity"
	"crudbench/bench/report"
	"crudbench/bench/results"
)

// The tiny capacity search of TestCapacity: two ramp steps, 5 and 10
// req/s, each probe 1 s after 1 s of warm-up, the confirmation 2 s. The SLO
// is loose (1 s) so that only what the machine cannot stall decides the
// probes: every request succeeds at these rates.
const (
	capStart, capMax = 5, 10
	capSLO           = time.Second
	capDuration      = 2 * time.Second
)

// TestCapacity runs a capacity search as a user does, in embedded mode, on
// one scenario and app, with no fixed profile: real apps, real PostgreSQL.
// The search reaches the cap whenever every probe met the SLO; on a busy
// machine a late tail can make one miss on throughput, and then the
// outcome must say so consistently. It tells the runner not to read the
// app from /proc (-no-proc), as for an app in another container: its CPU,
// memory and pool come from its metrics, and the report says so.
func TestCapacity(t *testing.T) {
	run, dir, console := runBench(t, []string{"DATABASE_URL="},
		"-capacity", "-scenarios", "read-one", "-apps", "rest", "-no-proc",
		"-capacity-start", "5", "-capacity-max", "10", "-slo-p99", capSLO.String(),
		"-probe-warmup", "1s", "-probe-duration", "1s",
		"-warmup", "1s", "-duration", capDuration.String(), "-cooldown", "0s")

	if len(run.Results) != 0 {
		t.Errorf("%d fixed-profile results, want none without -profiles", len(run.Results))
	}
	want := results.CapacitySettings{Start: capStart, Growth: 2, Max: capMax, Precision: 0.05,
		ProbeWarmup: results.Duration(time.Second), ProbeDuration: results.Duration(time.Second),
		MinSuccessRatio: results.CapacityMinSuccessRatio, MinThroughputShare: results.CapacityMinThroughputShare}
	if s := run.Settings; s.Capacity == nil || *s.Capacity != want || time.Duration(s.SLOP99) != capSLO {
		t.Errorf("settings: capacity %+v, SLO %v; want %+v and %v", s.Capacity, s.SLOP99, want, capSLO)
	}
	// With two CPUs or more the default gives the app CPUs of its own,
	// which the search judges it by.
	note, appCores := "without GOMAXPROCS", 0
	if cpus := run.Settings.CPUs; cpus != nil && cpus.Isolated {
		note, appCores = fmt.Sprintf("each app ran on %d CPU(s) of its own", cpus.AppCores), cpus.AppCores
	}
	if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		t.Errorf("no note explains the capacity search: %q", run.Notes)
	}
	if !strings.Contains(console, "probe  1 read-one   rest") {
		t.Error("the console shows no line per probe")
	}
	md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Capacities) != 1 {
		t.Fatalf("%d capacities, want 1", len(run.Capacities))
	}
	c := run.Capacities[0]
	// The source of the CPU figures is stated for the runs measured: the
	// confirmation, which a busy machine's miss at the first rate leaves
	// out.
	if want := "App CPU and RSS came from the apps' metrics (Prometheus, 1 s scrapes, CPU in 10 ms ticks) for rest."; c.Confirmation != nil && !strings.Contains(string(md), want) {
		t.Errorf("report.md does not say where the app's CPU came from: lacks %q", want)
	}
	if c.Scenario != "read-one" || c.App != "rest" {
		t.Errorf("capacity of %s on %s", c.Scenario, c.App)
	}
	for i, p := range c.Probes {
		checkProbe(t, i, p)
	}
	checkOutcome(t, c)
	if c.Rate > 0 {
		checkConfirmation(t, dir, c, appCores)
	}
}

// checkProbe checks what no timing can move in a probe: every request
// succeeded, the load generator sent no faster than asked, and every CPU
// figure was seen and above zero (a CPU clock never goes back, and the
// app served requests) — the app's, read from metrics in 10 ms ticks, or
// below its stated resolution, which a probe of a few requests a second
// can be.
func checkProbe(t *testing.T, i int, p results.Probe) {
	t.Helper()
	if p.SuccessRatio != 1 || p.AchievedRate <= 0 || p.AchievedRate > p.Rate*(1+1e-9) || p.Throughput > p.Rate*(1+1e-9) {
		t.Errorf("probe %d: success %v, achieved %.3f/s, throughput %.3f/s at %v/s", i, p.SuccessRatio, p.AchievedRate, p.Throughput, p.Rate)
	}
	if !(0 < p.P50 && p.P50 <= p.P99) {
		t.Errorf("probe %d: p50 %v, p99 %v", i, p.P50, p.P99)
	}
	if !p.AppCPUAvailable || !(p.AppCPU > 0 || p.AppCPUBelowResolution()) || !p.DBCPUAvailable || p.RunnerCPU <= 0 || !p.MachineCPUAvailable || p.MachineCPU <= 0 || !p.OtherCPUAvailable {
		t.Errorf("probe %d: CPU figures %+v", i, p)
	}
	if !p.PoolAvailable || p.PoolWaitMs <= 0 {
		t.Errorf("probe %d: pool wait %v ms (available %v), want above zero", i, p.PoolWaitMs, p.PoolAvailable)
	}
	if p.Met != (p.Why == "") {
		t.Errorf("probe %d: met %v, why %q", i, p.Met, p.Why)
	}
}

// checkOutcome checks the search's outcome against its probes: capped at
// the maximum when every probe met, else bracketed by the probes that met
// and missed, with a stop reason.
func checkOutcome(t *testing.T, c results.Capacity) {
	t.Helper()
	if len(c.Probes) == 0 || c.Probes[0].Rate != capStart {
		t.Fatalf("probes %+v, want the first at %v req/s", c.Probes, capStart)
	}
	// A rate is missed when two of its tries miss; one miss among met
	// tries is a spike the search looked past.
	misses := map[float64]int{}
	var missed []float64
	for _, p := range c.Probes {
		if !p.Met {
			t.Logf("probe at %v req/s (try %d) missed: %s (a late tail on a busy machine)", p.Rate, p.Try, p.Why)
			if misses[p.Rate]++; misses[p.Rate] == 2 {
				missed = append(missed, p.Rate)
			}
		}
	}
	// A confirmation may miss on a busy machine (its last answer late):
	// the runner then confirms 90% of its rate, up to three runs. The
	// capacity is the rate one held, the probes' rate kept as found; when
	// none held, the probes' rate, unconfirmed.
	found := c.Rate
	for _, m := range c.Missed {
		t.Logf("confirmation at %v req/s missed: %s", m.TargetRate, m.Verdict)
		checkVerdict(t, m, capSLO)
	}
	if c.Held && len(c.Missed) > 0 {
		found = c.Found
		want := found
		for range c.Missed {
			want *= capacity.ConfirmStep
		}
		if found != c.Missed[0].TargetRate || c.Rate != want {
			t.Errorf("%d missed confirmations from %v req/s: found %v, rate %v; want found at the first, rate %v",
				len(c.Missed), c.Missed[0].TargetRate, found, c.Rate, want)
		}
	}
	switch {
	case len(missed) == 0 && len(misses) > 0:
		if c.Status != results.CapacityCapped || found != capMax {
			t.Errorf("no rate missed twice: status %s, found %v; want capped at %v", c.Status, found, capMax)
		}
	case len(missed) == 0:
		if c.Status != results.CapacityCapped || found != capMax || c.Upper != 0 || c.StopReason != results.StopCap || len(c.Probes) != 2 {
			t.Errorf("every probe met: status %s, found %v, upper %v, stop %s, %d probes; want capped at %v after 2 probes",
				c.Status, found, c.Upper, c.StopReason, len(c.Probes), capMax)
		}
	case c.Status == results.CapacityCapped || c.Upper != slices.Min(missed) || c.StopReason == "" || c.StopDetail == "":
		t.Errorf("probes missed at %v: status %s, upper %v, stop %q (%s)", missed, c.Status, c.Upper, c.StopReason, c.StopDetail)
	}
}

// checkConfirmation checks the full-length run at the capacity found: its
// rate, its exact request count, its files, and the capacity per core.
func checkConfirmation(t *testing.T, dir string, c results.Capacity, appCores int) {
	t.Helper()
	r := c.Confirmation
	if r == nil {
		t.Fatal("a capacity without a confirmation run")
	}
	if r.Profile != "capacity" || r.TargetRate != c.Rate || r.Requests != uint64(c.Rate*capDuration.Seconds()) || r.SuccessRatio != 1 {
		t.Errorf("confirmation: profile %s, target %v, %d requests, success %v; want capacity, %v, %v, 1",
			r.Profile, r.TargetRate, r.Requests, r.SuccessRatio, c.Rate, c.Rate*capDuration.Seconds())
	}
	checkVerdict(t, *r, capSLO)
	if j := results.CapacitySLO(capSLO).JudgeRun(r); c.Held != j.Met {
		t.Errorf("held %v with a confirmation that met the SLO %v (%s)", c.Held, j.Met, j.Why)
	}
	perCore := c.Rate / r.AppCost.CPUMean
	if appCores > 0 {
		perCore = c.Rate / float64(appCores)
	}
	if !r.AppCost.Available || r.AppCost.CPUMean <= 0 || c.PerCore <= 0 || c.PerCore != perCore {
		t.Errorf("per core %v from a rate of %v and app CPU %+v", c.PerCore, c.Rate, r.AppCost)
	}
	if a := r.AppCost; a.Source != results.SourceMetrics || a.PID != 0 || a.CPUSeconds <= 0 || a.CPUMsPerRequest <= 0 || a.RSSMeanMB <= 0 {
		t.Errorf("confirmation's app cost %+v, want CPU and RSS from metrics (-no-proc), without a pid", a)
	}
	checkPool(t, *r, 20)
	for _, f := range []string{r.RawFile, r.SamplesFile} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 || !strings.Contains(f, "capacity-read-one-rest") {
			t.Errorf("confirmation file %q: %v", f, err)
		}
	}
}
