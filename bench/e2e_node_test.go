package main_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"crudbench/bench/cpuprof"
	"crudbench/bench/cpuset"
	"crudbench/bench/results"
	"crudbench/bench/stack"
)

// nodeApps are the built-in apps that run on Node.js.
var nodeApps = []string{"express", "express-cluster", "fastify", "nest", "nest-fastify", "yoga", "apollo", "mercurius", "mercurius-jit", "nest-graphql", "nest-mercurius", "grpc-node", "trpc", "next-rest", "next-graphql", "next-trpc"}

// TestNodeUnitTests runs the Node apps' own tests (node --test) against a
// throwaway PostgreSQL holding the dataset, as their READMEs say: the
// workspace's dependencies installed with npm ci at the repository root,
// DATABASE_URL set.
func TestNodeUnitTests(t *testing.T) {
	requireNode(t)
	dbURL := startDatabase(t)
	root, err := stack.ModuleRoot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := stack.InstallNode(t.Context(), root, io.Discard); err != nil {
		t.Fatalf("install the Node workspace's dependencies: %v", err)
	}
	for _, pkg := range []string{"node-base", "express", "fastify", "nest", "yoga", "apollo", "mercurius", "nest-graphql", "grpc-node", "trpc", "next", "web"} {
		t.Run(pkg, func(t *testing.T) {
			dir := filepath.Join(root, "apps", pkg)
			out := npm(t, dir, []string{"DATABASE_URL=" + dbURL}, "test")
			counts := map[string]int{}
			for _, m := range nodeTestCounts.FindAllStringSubmatch(out, -1) {
				counts[m[1]], _ = strconv.Atoi(m[2])
			}
			t.Logf("npm test in apps/%s: %v", pkg, counts)
			for what, n := range counts {
				if n > 0 && what != "pass" {
					t.Errorf("npm test in apps/%s: %s %d, want none; its output:\n%s", pkg, what, n, out)
				}
			}
			if counts["pass"] == 0 {
				t.Errorf("npm test in apps/%s passed no test; its output:\n%s", pkg, out)
			}
		})
	}
}

// nodeTestCounts matches the totals node --test prints, in its TAP and
// its spec reporter.
var nodeTestCounts = regexp.MustCompile(`(?m)^(?:# |ℹ )(pass|fail|skipped|skip|todo|cancelled) (\d+)$`)

// npm runs npm with args in dir, the extra environment added, and returns
// its output; it fails the test with that output when npm fails.
func npm(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("npm", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// requireNode fails the test when node or npm is missing, saying what to
// install.
func requireNode(t *testing.T) {
	t.Helper()
	if missing := stack.ToolchainNode.Missing(); missing != "" {
		t.Fatalf("%s not on PATH: %s", missing, stack.NodeInstall)
	}
}

// clusterRate is the rate express-cluster is measured at in TestNodeApps:
// on an idle core, over a hundred of V8's 10 ms samples in 2 s (a
// millisecond and a half of CPU per request, and the worker's own
// overhead); a core shared with other work serves fewer, and a saturated
// run is measured too.
const clusterRate = 300

// TestNodeApps has the runner build, start and validate the Node apps on
// a throwaway PostgreSQL, as a user does with -apps, and then measure
// express-cluster, whose CPU and memory are the sum over its primary and
// its workers, and whose CPU profile is V8's, of its first worker.
func TestNodeApps(t *testing.T) {
	requireNode(t)
	t.Run("validate", func(t *testing.T) {
		console, err := execBench(t, []string{"DATABASE_URL="}, "-validate-only", "-apps", strings.Join(nodeApps, ","), "-out", t.TempDir())
		if err != nil {
			t.Fatalf("bench -validate-only: %v", err)
		}
		want := []string{"Building " + strings.Join(nodeApps, ", ") + "…\n", fmt.Sprintf("Every scenario passed on every app (%d checks).", 7*len(nodeApps))}
		for _, app := range nodeApps {
			row, _ := stack.FindBuiltin(app)
			scheme := "http"
			if row.Kind == "grpc" {
				scheme = "grpc"
			}
			started := fmt.Sprintf("\nStarted %s at %s://127.0.0.1:", app, scheme)
			if row.Shares != "" {
				started = fmt.Sprintf("\n%s is served by the same process (pid ", app)
			}
			want = append(want, started,
				fmt.Sprintf("  %s (kind %s): passed read-one, read-small, read-many, read-slim, write, mixed, control\n", app, row.Kind))
		}
		for _, line := range want {
			if !strings.Contains(console, line) {
				t.Errorf("the console does not say %q", line)
			}
		}
	})

	t.Run("express-cluster measured", func(t *testing.T) {
		run, dir, _ := runBench(t, []string{"DATABASE_URL="}, "-apps", "express-cluster",
			"-scenarios", "read-one", "-rate", "read-one="+strconv.Itoa(clusterRate),
			"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "1s", "-profile-cpu")
		if len(run.Results) != 1 {
			t.Fatalf("%d results, want 1", len(run.Results))
		}
		r := run.Results[0]
		if !r.Measured() {
			t.Errorf("verdict %s (%s), want a measured run", r.Verdict, r.Reason)
		}
		c := r.AppCost
		if !c.Available || c.Source != results.SourceProc || !c.Tree || c.CPUMsPerRequest <= 0 || c.RSSMeanMB <= 0 {
			t.Errorf("app cost %+v, want figures from /proc summed over the process tree", c)
		}
		checkProfile(t, dir, r)
		// V8 samples every 10 ms, and Express's own code is about a sixth of
		// a request's CPU: a profile of a few samples may miss it by chance
		// (one of ten samples did). How many samples a loaded machine lets
		// the worker take is timing; that a profile of many sees Express is
		// not: with 80, the chance that none lands in http is below one in
		// a million. The layer rules themselves are tested on recorded
		// profiles in cpuprof.
		n := r.CPUProfile.CPUSeconds / 0.010
		switch {
		case n < 5:
			t.Errorf("the profile holds %.0f samples of 10 ms at %d req/s, want a profile of the load", n, clusterRate)
		case n >= 80 && shareOf(r.CPUProfile, results.LayerHTTP) == 0:
			t.Errorf("no CPU in http, where Express serves every request, in %.0f samples: %+v", n, r.CPUProfile.Layers)
		default:
			t.Logf("%.0f samples; layers %+v", n, r.CPUProfile.Layers)
		}
		// The workers count their pool's acquisitions, and the primary
		// adds them up, the workers' shares of DB_MAX_CONNS too.
		if p := r.AppCost.Pool; p == nil || p.Acquires == 0 || p.MaxConns != run.Settings.DBMaxConns {
			t.Errorf("pool %+v, want acquisitions counted, out of the %d connections of DB_MAX_CONNS", p, run.Settings.DBMaxConns)
		}
		cpus, err := cpuset.Parse(run.Settings.CPUs.Apps["express-cluster"])
		if err != nil {
			t.Fatal(err)
		}
		worker := "workers"
		if len(cpus) == 1 {
			worker = "worker"
		}
		for _, note := range []string{
			fmt.Sprintf("express-cluster: its CPU and RSS, idle RSS included, are the sum over its primary and the %d %s it forked (one per CPU it may run on)", len(cpus), worker),
			"express-cluster: its CPU profiles are V8's, of the main thread where its JavaScript runs",
			"express-cluster: its CPU profiles are of its first worker only",
		} {
			if !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
				t.Errorf("no note says %q; notes:\n%s", note, strings.Join(run.Notes, "\n"))
			}
		}
	})
}

// TestStartNodeApp starts express-cluster as the runner does, on one CPU:
// the affinity reaches its workers, so it forks one; its metrics are on an
// address of their own, and its worker serves V8's CPU profile on its debug
// address; its idle memory is its tree's.
func TestStartNodeApp(t *testing.T) {
	requireNode(t)
	row, _ := stack.FindBuiltin("express-cluster")
	dbURL, bin := startDatabase(t), buildApps(t, []stack.App{row})
	allowed, err := cpuset.Allowed(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	one := cpuset.Of(allowed[len(allowed)-1])
	t.Setenv("WORKERS", "3") // the runner's shell must not size the cluster
	p, err := stack.StartApp(context.Background(), row, filepath.Join(bin, row.Name), stack.AppConfig{
		DatabaseURL: dbURL, DBMaxConns: 4, AuthSecret: "e2e-test-secret-0123456789", Log: io.Discard, CPUs: one,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if p.Workers != 1 || p.DebugURL == "" || p.DebugURL+"/metrics" == p.MetricsURL || p.Ready <= 0 || p.IdleRSSBytes < 1<<20 {
		t.Errorf("started %+v, want 1 worker, a DebugURL of its own, a ready time and idle memory", p)
	}
	data, err := cpuprof.FetchV8(t.Context(), nil, p.DebugURL, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if prof, err := cpuprof.Analyze(data); err != nil || prof.Seconds < 1 {
		t.Errorf("its CPU profile: %+v, %v; want one of a second", prof, err)
	}
	if got, err := cpuset.Allowed(p.PID); err != nil || got.String() != one.String() {
		t.Errorf("the primary may run on CPUs %s (%v), want %s", got, err, one)
	}
	resp, err := http.Get(p.MetricsURL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, metric := range []string{"process_cpu_seconds_total", "process_resident_memory_bytes"} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "\n"+metric+" ") {
			t.Errorf("GET %s: %d without %s", p.MetricsURL, resp.StatusCode, metric)
		}
	}
	if err := p.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
}

// shareOf returns layer's share of p, 0 when p has none.
func shareOf(p *results.CPUProfile, layer string) float64 {
	if p == nil {
		return 0
	}
	for _, l := range p.Layers {
		if l.Layer == layer {
			return l.Share
		}
	}
	return 0
}
