package helm_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestChartQoS checks the qos values: Burstable gives every measured
// container (the apps, the database, the shards) the small CPU request
// and keeps its limit of whole CPUs and its memory as requested; a class
// of another name is refused.
func TestChartQoS(t *testing.T) {
	objs := mustRender(t, "--set", "qos.class=Burstable", "--set", "qos.burstableCPU=50m")
	measured := 0
	for _, o := range objs {
		if o.role() == "" || o.Metadata.Labels["app.kubernetes.io/name"] == "results" {
			continue
		}
		for _, c := range o.Spec.Template.Spec.Containers {
			measured++
			res := c.Resources
			if res.Requests["cpu"] != "50m" || res.Requests["memory"] != res.Limits["memory"] {
				t.Errorf("%s %s, container %s: requests %v, limits %v: want cpu 50m and memory as limited", o.Kind, o.Metadata.Name, c.Name, res.Requests, res.Limits)
			}
			if n, err := strconv.Atoi(res.Limits["cpu"]); err != nil || n < 1 {
				t.Errorf("%s %s, container %s: cpu limit %q, want whole CPUs", o.Kind, o.Metadata.Name, c.Name, res.Limits["cpu"])
			}
		}
	}
	if want := len(apps) + 2; measured != want {
		t.Errorf("%d measured containers, want %d (the apps, the database, the bench)", measured, want)
	}
	if _, err := render(t, "--set", "qos.class=BestEffort"); err == nil || !strings.Contains(err.Error(), "Guaranteed or Burstable") {
		t.Errorf("qos.class BestEffort: %v, want an error naming the classes", err)
	}
}

// TestChartLateShard checks the barrier test's knob: bench.lateShard
// gives the shards LATE_INDEX and LATE_SECONDS, none by default, and the
// shard script holds that shard back before it starts.
func TestChartLateShard(t *testing.T) {
	env := func(objs []object) []envVar {
		i := slices.IndexFunc(objs, func(o object) bool { return o.Kind == "Job" && o.Metadata.Name == "crudbench-bench" })
		if i < 0 {
			t.Fatal("no Job crudbench-bench")
		}
		return objs[i].Spec.Template.Spec.Containers[0].Env
	}
	late := func(e envVar) bool { return strings.HasPrefix(e.Name, "LATE_") }
	if slices.ContainsFunc(env(mustRender(t)), late) {
		t.Error("the default values hold a shard back")
	}
	got := slices.DeleteFunc(env(mustRender(t, "--set", "bench.lateShard.seconds=20")), func(e envVar) bool { return !late(e) })
	if want := []envVar{{Name: "LATE_INDEX", Value: "1"}, {Name: "LATE_SECONDS", Value: "20"}}; !slices.Equal(got, want) {
		t.Errorf("with bench.lateShard.seconds=20: %+v, want %+v", got, want)
	}

	calls := filepath.Join(t.TempDir(), "calls")
	bin := stubs(t, calls)
	t.Setenv("LATE_INDEX", "1")
	t.Setenv("LATE_SECONDS", "1")
	out, err := shard(t, bin, filepath.Join(t.TempDir(), "job-uid"), "1", "grpc:1", "5")
	if err != nil || !strings.Contains(out, "shard 1/2: starting 1s late (bench.lateShard)") {
		t.Errorf("shard 1 with LATE_INDEX=1: %v, output %q: want it to say it starts 1s late", err, out)
	}
}
