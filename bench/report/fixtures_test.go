package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

var (
	profiles  = []string{"light", "high"}
	scenarios = []string{"read-one", "read-small", "read-many", "write"}
	appNames  = []string{"rest", "graphql", "htmx"}
	rates     = map[string]map[string]float64{
		"light": {"read-one": 100, "read-small": 100, "read-many": 20, "write": 20},
		"high":  {"read-one": 1200, "read-small": 1200, "read-many": 20, "write": 100},
	}
	// p99 and CPU-ms per request by app, scaled per scenario below.
	baseP99   = map[string]float64{"rest": 2.0, "graphql": 5.0, "htmx": 2.8}
	baseCPUMs = map[string]float64{"rest": 0.2, "graphql": 0.5, "htmx": 0.3}
	scale     = map[string]float64{"read-one": 1, "read-small": 0.8, "read-many": 20, "write": 3}
)

const validationProblem = `response is the login page (<form action="/login">), not the vacancy list`

// newRun builds a realistic run: two profiles, four scenarios, three apps,
// with a saturated run, a failed validation, a skipped run, an app whose
// CPU could not be read and a database whose CPU was not visible.
func newRun(t *testing.T) *results.Run {
	t.Helper()
	run := runFrame()
	for _, s := range scenarios {
		for _, a := range appNames {
			v := results.Validation{Scenario: s, App: a, OK: true}
			if s == "write" && a == "htmx" {
				v.OK, v.Problem = false, validationProblem
			}
			run.Validations = append(run.Validations, v)
		}
	}
	for _, p := range profiles {
		for _, s := range scenarios {
			for _, a := range appNames {
				run.Results = append(run.Results, measuredResult(p, s, a))
			}
		}
	}
	// htmx cannot keep 1200 req/s of read-one.
	sat := find(t, run, "high", "read-one", "htmx")
	sat.Verdict, sat.Reason = results.VerdictSaturated, "throughput 71% of target"
	sat.Throughput, sat.SuccessRatio = 850, 0.9975
	sat.StatusCodes = map[string]int{"200": 12750, "0": 32}
	sat.Errors = []string{`Get "http://127.0.0.1:8083/persons/1": context deadline exceeded`}
	sat.Latency = results.Latency{Mean: 900, P50: 850, P90: 1900, P95: 2400, P99: 3100, Max: 5200}
	// The write cycle failed validation on htmx: not measured.
	for _, p := range profiles {
		f := find(t, run, p, "write", "htmx")
		*f = results.Result{Profile: p, Scenario: "write", App: "htmx", Verdict: results.VerdictFailed,
			Reason: "validation failed", TargetRate: rates[p]["write"]}
	}
	// graphql was attached without a pid for one run.
	blind := find(t, run, "high", "read-many", "graphql")
	blind.AppCost = results.ProcessCost{}
	// PostgreSQL's CPU was not visible for one run.
	find(t, run, "light", "read-many", "rest").DB.CPUAvailable = false
	// Interrupted before the last run.
	skip := find(t, run, "high", "read-small", "rest")
	*skip = results.Result{Profile: "high", Scenario: "read-small", App: "rest", Verdict: results.VerdictSkipped,
		Reason: "interrupted", TargetRate: 1200}
	return run
}

// runFrame is newRun's environment, settings and notes, before any
// validation or result.
func runFrame() *results.Run {
	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	return &results.Run{
		SchemaVersion: results.SchemaVersion,
		StartedAt:     start,
		FinishedAt:    start.Add(14*time.Minute + 12*time.Second),
		Environment: results.Environment{
			CPUModel: "AMD EPYC 7B13 64-Core Processor", CPUCount: 2, Kernel: "6.1.0-18-amd64",
			GoVersion: "go1.26.8", PostgresVersion: "PostgreSQL 15.8", GitCommit: "9e0658b",
			Dataset: map[string]int64{"person": 500, "appointment": 1512, "stipend": 4036, "funding": 3024, "payer": 40, "vacancy": 120},
			Mode:    "embedded",
		},
		Settings: results.Settings{
			Profiles: profiles, Scenarios: scenarios, Apps: appNames,
			Warmup: results.Duration(3 * time.Second), Duration: results.Duration(15 * time.Second),
			Cooldown: results.Duration(2 * time.Second), Timeout: results.Duration(30 * time.Second),
			MaxConnections: 100, Repeat: 1, SampleInterval: results.Duration(100 * time.Millisecond),
			DBMaxConns: 20, Rates: rates, SLOP99: results.Duration(results.DefaultSLOP99),
		},
		Runner:          results.ProcessCost{Available: true, PID: 100, CPUMean: 0.6, CPUMax: 0.9, RSSMeanMB: 80, RSSMaxMB: 96},
		SamplerOverhead: 0.0032,
		Notes: []string{
			"htmx answers server-rendered HTML, so its responses are larger than the JSON of rest and graphql for the same fields.",
			"graphql's read-one query selects exactly the fields rest returns (field parity).",
		},
	}
}

func measuredResult(profile, scenario, app string) results.Result {
	target := rates[profile][scenario]
	p99 := baseP99[app] * scale[scenario]
	cpuMs := baseCPUMs[app] * scale[scenario]
	n := int(target * 15)
	return results.Result{
		Profile: profile, Scenario: scenario, App: app, Verdict: results.VerdictOK,
		TargetRate: target, AchievedRate: target - 0.1, Throughput: target - 0.1,
		Requests: uint64(n), SuccessRatio: 1, StatusCodes: map[string]int{"200": n},
		Latency:  results.Latency{Mean: p99 / 3, P50: p99 / 4, P90: p99 / 2, P95: p99 * 0.7, P99: p99, Max: p99 * 3},
		BytesIn:  4210 * scale[scenario],
		BytesOut: 0,
		AppCost: results.ProcessCost{Available: true, PID: 4242, CPUMean: target * cpuMs / 1000, CPUMax: target * cpuMs / 1000 * 1.4,
			CPUMsPerRequest: cpuMs, RSSMeanMB: 24.5, RSSMaxMB: 27.5, RSSStartMB: 22, RSSEndMB: 26.75},
		DB: results.DBCost{Available: true, StatementsPerRequest: 4, CPUAvailable: true, CPUMean: 0.12,
			CPUMsPerRequest: 1.25, RSSMeanMB: 140},
		RawFile:     fmt.Sprintf("raw/%s-%s-%s.bin", profile, scenario, app),
		SamplesFile: fmt.Sprintf("samples/%s-%s-%s.csv", profile, scenario, app),
	}
}

func find(t *testing.T, run *results.Run, profile, scenario, app string) *results.Result {
	t.Helper()
	for i := range run.Results {
		r := &run.Results[i]
		if r.Profile == profile && r.Scenario == scenario && r.App == app {
			return r
		}
	}
	t.Fatalf("no result %s/%s/%s", profile, scenario, app)
	return nil
}

// writeSamples writes sampler CSVs for light read-one (every app) with the
// sampler's own writer; the other runs' samples are missing on purpose.
func writeSamples(t *testing.T, dir string, run *results.Run) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "samples"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := run.StartedAt
	for i, a := range appNames {
		ser := sampler.Series{Start: start}
		for k := range 181 {
			ser.Samples = append(ser.Samples, sampler.Sample{
				At:       start.Add(time.Duration(k) * 100 * time.Millisecond),
				CPU:      time.Duration(k*(i+1)/3) * 10 * time.Millisecond,
				RSSBytes: uint64(20+i*5+k/20) << 20,
			})
		}
		var b bytes.Buffer
		if err := ser.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(find(t, run, "light", "read-one", a).SamplesFile))
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fullRun is newRun with every section of schema version 2: an SLO with
// slow runs, per-second timelines, CPU profiles, capacity searches on
// read-one and read-small, and stack facts.
func fullRun(t *testing.T) *results.Run {
	t.Helper()
	run := newRun(t)
	run.Settings.ProfileCPU = true
	run.Settings.Capacity = &results.CapacitySettings{Start: 50, Growth: 2, Max: 5000, Precision: 0.05,
		ProbeWarmup: results.Duration(2e9), ProbeDuration: results.Duration(5e9),
		MinSuccessRatio: results.CapacityMinSuccessRatio, MinThroughputShare: results.CapacityMinThroughputShare}
	for _, p := range profiles {
		r := find(t, run, p, "read-many", "htmx")
		r.Verdict = results.VerdictSlow
	}
	for i := range run.Results {
		if r := &run.Results[i]; r.Measured() {
			r.Timeline = timeline(r.Latency.P50, r.Latency.P99, !r.HeldRate())
		}
	}
	for _, a := range appNames {
		find(t, run, "high", "read-one", a).CPUProfile = cpuProfile("high-read-one-"+a, 0.12, 0.30)
	}
	run.Capacities = []results.Capacity{
		found("read-one", "rest", 1450, 1520, results.StopAppCPU, "the app used its CPU: app 1.92 of 2 cores", 0.50, 30),
		found("read-one", "graphql", 610, 640, results.StopAppCPU, "app CPU 1.95 of 2 cores", 1.20, 44),
		found("read-one", "htmx", 700, 735, results.StopLoadGenerator, "the load generator sent 637 of 700 req/s: it fell behind its schedule", 1.05, 33),
		{Scenario: "read-small", App: "rest", Status: results.CapacityCapped, Rate: 5000, StopReason: results.StopCap,
			StopDetail: "every probe up to the cap of 5000 req/s met the SLO", PerCore: 2900,
			Probes: ramp(5000, 0, 0.3), Confirmation: confirmation("read-small", "rest", 5000, 0.35, 29), Held: true},
		found("read-small", "graphql", 900, 945, results.StopQueueing, "latency grew with CPU to spare: app 1.10 of 2 cores", 0.80, 41),
		{Scenario: "read-small", App: "htmx", Status: results.CapacityNone, Upper: 50, StopReason: results.StopAppCPU,
			StopDetail: "the app used its CPU: app 1.97 of 2 cores", Probes: []results.Probe{busyProbe(probe(50, false, 0.9))}},
	}
	graphql := run.Capacities[1].Confirmation
	graphql.CPUProfile = cpuProfile("capacity-read-one-graphql", 0.10, 0.41)
	run.Stacks = []results.StackFacts{
		stack("rest", 800, 0, 14, 180, 12.5),
		stack("graphql", 2400, 9000, 22, 240, 18.25),
		stack("htmx", 1000, 0, 15, 190, 13),
	}
	return run
}

// timeline is 15 seconds at steady latencies, or with a p99 that climbs
// for a run that queued.
func timeline(p50, p99 float64, queued bool) []results.Second {
	var ts []results.Second
	for i := range 15 {
		s := results.Second{At: float64(i), Requests: 100, Successes: 100, P50: p50, P99: p99}
		if queued {
			s.P50, s.P99 = p50*float64(i+1)/15, p99*float64(i+1)/15
		}
		ts = append(ts, s)
	}
	return ts
}

// cpuProfile spends http, then encoding, and shares the rest out so the
// shares add up to 1.
func cpuProfile(name string, http, encoding float64) *results.CPUProfile {
	rest := (1 - http - encoding) / 4
	p := &results.CPUProfile{File: "profiles/" + name + ".pb.gz", Seconds: 15, CPUSeconds: 4.1}
	for _, l := range results.Layers {
		share := rest
		switch l {
		case results.LayerHTTP:
			share = http
		case results.LayerEncoding:
			share = encoding
		}
		p.Layers = append(p.Layers, results.LayerShare{Layer: l, Share: share})
	}
	for i := range 10 {
		p.Top = append(p.Top, results.FunctionShare{Name: fmt.Sprintf("pkg.Func%d", i), Flat: 0.1 - float64(i)*0.008, Cum: 0.2 + float64(i)*0.01})
	}
	return p
}

// found is a search that bracketed rate between its ramp and bisection.
func found(scenario, app string, rate, upper float64, stop, detail string, cpuMs, rssMB float64) results.Capacity {
	conf := confirmation(scenario, app, rate, cpuMs, rssMB)
	return results.Capacity{Scenario: scenario, App: app, Status: results.CapacityFound, Rate: rate, Upper: upper,
		StopReason: stop, StopDetail: detail, PerCore: rate / conf.AppCost.CPUMean,
		Probes: append(ramp(rate, upper, cpuMs), probe(rate, true, cpuMs*rate/1000)), Confirmation: conf, Held: true}
}

// ramp doubles from 50 req/s while under limit, then misses at upper.
func ramp(limit, upper, cpuMs float64) []results.Probe {
	var ps []results.Probe
	for r := 50.0; r <= limit; r *= 2 {
		ps = append(ps, probe(r, true, cpuMs*r/1000))
	}
	if upper > 0 {
		ps = append(ps, probe(upper, false, 1.9))
	}
	return ps
}

func probe(rate float64, met bool, cores float64) results.Probe {
	p := results.Probe{Rate: rate, AchievedRate: rate, Throughput: rate, SuccessRatio: 1, P50: 1.5, P99: 9,
		AppCPU: cores, AppCPUAvailable: true, DBCPU: 0.2, DBCPUAvailable: true, RunnerCPU: 0.3, MachineCPU: cores + 0.5,
		MachineCPUAvailable: true, Met: met}
	if !met {
		p.Throughput, p.P50, p.P99, p.Why = rate*0.8, 400, 2100, "throughput 80% of the rate"
	}
	return p
}

// busyProbe is p on a machine where another process used most of a core.
func busyProbe(p results.Probe) results.Probe {
	p.MachineCPU += 0.95
	p.OtherCPU, p.OtherCPUAvailable = 0.95, true
	p.Others = []results.ProcessShare{{PID: 4242, Name: "sha256sum", Cores: 0.81}, {PID: 17, Name: "kworker/1:2", Cores: 0.1}}
	return p
}

func confirmation(scenario, app string, rate, cpuMs, rssMB float64) *results.Result {
	r := measuredResult("light", scenario, app)
	r.Profile, r.TargetRate, r.AchievedRate, r.Throughput = "capacity", rate, rate, rate
	r.AppCost.CPUMsPerRequest, r.AppCost.CPUMean, r.AppCost.RSSMaxMB = cpuMs, rate*cpuMs/1000, rssMB
	r.Latency.P99 = 31
	r.Timeline = timeline(r.Latency.P50, r.Latency.P99, false)
	return &r
}

func stack(app string, goLines, generated int, binaryMB, startMs, idleMB float64) results.StackFacts {
	return results.StackFacts{App: app, Runtime: "Go", RuntimeVersion: "1.26.0",
		Frameworks: []results.Framework{{Name: "chi", Version: "5.5.0"}, {Name: "pgx", Version: "5.12.0"}},
		Own:        results.Lines{Go: goLines, Generated: generated, Tests: 650, Other: 120},
		Shared:     results.Lines{Go: 3000, Generated: 2400, Tests: 900}, DirectModules: 9, TotalModules: 41,
		BinaryBytes: int64(binaryMB * results.BytesPerMB), StartMs: startMs, IdleRSSMB: idleMB}
}

// bottomLineRun is fullRun with no profile at which every app held
// read-one, so that read-one's figures come from the confirmations.
func bottomLineRun(t *testing.T) *results.Run {
	t.Helper()
	run := fullRun(t)
	for _, p := range profiles {
		find(t, run, p, "read-one", "htmx").Verdict = results.VerdictSaturated
	}
	return run
}
