package main_test

import (
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"crudbench/bench/results"
)

// Checks of one measured result that hold however busy the machine: what
// timing can move is bounded by what the run itself measured.

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
