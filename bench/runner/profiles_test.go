package runner

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
)

// TestFixedProfiles drives the fixed-profile phase with fake apps, load
// and database, and checks what it records of every (scenario, app).
func TestFixedProfiles(t *testing.T) {
	scenarios, apps := []string{scenario.ReadOne, scenario.Write}, []string{"rest", "express"}
	pairs := [][2]string{{scenario.ReadOne, "rest"}, {scenario.ReadOne, "express"}, {scenario.Write, "rest"}, {scenario.Write, "express"}}

	t.Run("every pair measured, primed once, in order", func(t *testing.T) {
		w := newWorld(t, apps...)
		w.cores["rest"], w.cores["express"] = 0.5, 0.25
		cfg := testConfig(scenarios, apps)
		cfg.Prime = time.Second
		p := newPhases(t, cfg, w)
		got := p.profiles(validity{}).run(context.Background())
		if len(got) != len(pairs) {
			t.Fatalf("%d results, want %d", len(got), len(pairs))
		}
		for i, res := range got {
			if res.Scenario != pairs[i][0] || res.App != pairs[i][1] || res.Profile != "light" {
				t.Errorf("result %d is %s %s %s, want light %s %s", i, res.Profile, res.Scenario, res.App, pairs[i][0], pairs[i][1])
			}
			if res.Verdict != results.VerdictOK || res.TargetRate != 100 || res.DB.StatementsPerRequest != statementsPerRequest {
				t.Errorf("%s %s: %s at %v/s, %v statements per request; want ok at 100/s, %d", res.Scenario, res.App, res.Verdict, res.TargetRate, res.DB.StatementsPerRequest, statementsPerRequest)
			}
			// What the sampler read of the app over the window.
			if c := res.AppCost; !c.Available || math.Abs(c.CPUMean-w.cores[res.App]) > 0.01 || c.RSSMeanMB != 50 {
				t.Errorf("%s %s: app cost %+v, want %v cores and 50 MB as sampled", res.Scenario, res.App, c, w.cores[res.App])
			}
			for _, file := range []string{res.RawFile, res.SamplesFile} {
				if _, err := os.Stat(filepath.Join(p.m.dir, filepath.FromSlash(file))); err != nil {
					t.Errorf("%s %s: %v", res.Scenario, res.App, err)
				}
			}
		}
		if want := []string{"prime/read-one/rest", "prime/read-one/express", "prime/write/express", "prime/write/rest"}; !slices.Equal(w.primes, want) {
			t.Errorf("primed %v, want %v (each pair once, before its first run)", w.primes, want)
		}
		var written []string
		for _, tag := range w.cleanups {
			if !strings.Contains(tag, "/write/") {
				t.Errorf("cleaned up after %q, which writes nothing", tag)
			}
			written = append(written, tag)
		}
		if len(written) != 4 { // two primings, two runs
			t.Errorf("cleaned up after %v, want the write scenario's primings and runs", written)
		}
		if !strings.Contains(p.out.String(), "Measuring 4 run(s) of 1s each") {
			t.Errorf("console:\n%s", p.out)
		}
	})

	t.Run("an app that dies is recorded so", func(t *testing.T) {
		w := newWorld(t, apps...)
		// express answers its first run, dies in it, and refuses
		// everything after.
		w.serve = func(app string, opts load.Options, n int) load.Summary {
			if app == "express" {
				w.dead[app] = true
				return refusedSummary(opts.Rate, opts.Duration)
			}
			return served(opts.Rate, opts.Duration, 5*time.Millisecond)
		}
		p := newPhases(t, testConfig(scenarios, apps), w)
		got := p.profiles(validity{}).run(context.Background())
		byPair := map[[2]string]results.Result{}
		for _, res := range got {
			byPair[[2]string{res.Scenario, res.App}] = res
		}
		for _, sc := range scenarios {
			if res := byPair[[2]string{sc, "rest"}]; res.Verdict != results.VerdictOK {
				t.Errorf("rest %s: %s (%s), want ok: another app's death is not rest's", sc, res.Verdict, res.Reason)
			}
		}
		died, after := byPair[[2]string{scenario.ReadOne, "express"}], byPair[[2]string{scenario.Write, "express"}]
		if died.Verdict != results.VerdictSaturated || died.SuccessRatio != 0 || !slices.Contains(died.Errors, refused.Error()) {
			t.Errorf("the run express died in: %s, success %v, errors %v; want saturated, none, the refusal", died.Verdict, died.SuccessRatio, died.Errors)
		}
		if after.Verdict != results.VerdictFailed || !strings.Contains(after.Reason, "log in to express") || !strings.Contains(after.Reason, "connection refused") {
			t.Errorf("the run after express died: %s (%s), want failed by the refused login", after.Verdict, after.Reason)
		}
		if w.attacked["express"] != 1 {
			t.Errorf("express attacked %d times, want once: a run that cannot log in sends nothing", w.attacked["express"])
		}
	})

	t.Run("a pair that failed validation is not measured", func(t *testing.T) {
		w := newWorld(t, apps...)
		cfg := testConfig(scenarios, apps)
		cfg.Prime = time.Second
		p := newPhases(t, cfg, w)
		problem := errors.New("write: the update did not raise version")
		got := p.profiles(validity{{scenario.Write, "express"}: problem}).run(context.Background())
		res := got[3]
		if res.App != "express" || res.Scenario != scenario.Write || res.Verdict != results.VerdictFailed || res.Reason != "validation failed: "+problem.Error() {
			t.Errorf("%s %s: %s (%s), want failed by validation's problem", res.Scenario, res.App, res.Verdict, res.Reason)
		}
		for _, a := range w.attacks {
			if a.Name == "light/write/express" {
				t.Errorf("attacked %s, which failed validation", a.Name)
			}
		}
		if slices.Contains(w.primes, "prime/write/express") {
			t.Errorf("primed %v, which holds the pair that failed validation", w.primes)
		}
		if !strings.Contains(p.out.String(), "Measuring 3 run(s)") {
			t.Errorf("console does not count 3 runs:\n%s", p.out)
		}
	})

	t.Run("a closed loop sends its clients and has no target", func(t *testing.T) {
		w := newWorld(t, "rest")
		var sent []load.Options
		w.serve = func(_ string, opts load.Options, _ int) load.Summary {
			sent = append(sent, opts)
			return served(380, opts.Duration, 5*time.Millisecond) // what 4 clients made of it
		}
		cfg := testConfig([]string{scenario.ReadOne}, []string{"rest"})
		cfg.Model, cfg.Clients = results.ModelClosed, 4
		p := newPhases(t, cfg, w)
		got := p.profiles(validity{}).run(context.Background())
		if len(sent) != 1 || sent[0].Clients != 4 || sent[0].Rate != 0 {
			t.Fatalf("attacks %+v, want one of 4 clients at no rate", sent)
		}
		if res := got[0]; res.TargetRate != 0 || res.Throughput != 380 || res.Verdict != results.VerdictOK {
			t.Errorf("%s at target %v, throughput %v; want ok with no target, 380/s served", res.Verdict, res.TargetRate, res.Throughput)
		}
		if out := p.out.String(); !strings.Contains(out, "as a closed loop of 4 client(s)") || !strings.Contains(out, "served  380.0/s") {
			t.Errorf("console:\n%s", out)
		}
	})

	t.Run("repeats folded into one result", func(t *testing.T) {
		w := newWorld(t, "rest")
		cfg := testConfig([]string{scenario.ReadOne}, []string{"rest"})
		cfg.Repeat = 3
		p := newPhases(t, cfg, w)
		got := p.profiles(validity{}).run(context.Background())
		if len(got) != 1 {
			t.Fatalf("%d results, want 1", len(got))
		}
		if len(got[0].Repeats) != 3 || w.attacked["rest"] != 3 {
			t.Errorf("%d repeats after %d attacks, want 3 after 3", len(got[0].Repeats), w.attacked["rest"])
		}
		for _, a := range w.attacks {
			if a.Name != "light/read-one/rest" {
				t.Errorf("attack %q, want light/read-one/rest", a.Name)
			}
		}
	})
}
