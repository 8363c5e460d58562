package helm_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// object is what the tests read of a rendered Kubernetes object.
type object struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name        string            `yaml:"name"`
		Labels      map[string]string `yaml:"labels"`
		Annotations map[string]string `yaml:"annotations"`
	} `yaml:"metadata"`
	Spec struct {
		ClusterIP      string `yaml:"clusterIP"`
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
	Data map[string]string `yaml:"data"`
}

// podSpec is what the tests read of a pod template.
type podSpec struct {
	NodeSelector   map[string]string `yaml:"nodeSelector"`
	InitContainers []container       `yaml:"initContainers"`
	Containers     []container       `yaml:"containers"`
}

// container is what the tests read of a container.
type container struct {
	Name      string   `yaml:"name"`
	Image     string   `yaml:"image"`
	Command   []string `yaml:"command"`
	Args      []string `yaml:"args"`
	Env       []envVar `yaml:"env"`
	Ports     []port   `yaml:"ports"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
}

// port is a container's named port.
type port struct {
	Name          string `yaml:"name"`
	ContainerPort int    `yaml:"containerPort"`
}

// envVar is a container's environment variable, its value or its source.
type envVar struct {
	Name      string `yaml:"name"`
	Value     string `yaml:"value"`
	ValueFrom *struct {
		SecretKeyRef *struct{ Name, Key string } `yaml:"secretKeyRef"`
		FieldRef     *struct {
			FieldPath string `yaml:"fieldPath"`
		} `yaml:"fieldRef"`
	} `yaml:"valueFrom"`
}

// probe is a liveness or readiness probe.
type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
	} `yaml:"httpGet"`
	GRPC *struct {
		Port    int     `yaml:"port"`
		Service *string `yaml:"service"`
	} `yaml:"grpc"`
}

// role is the placement role a workload's pods carry.
func (o object) role() string { return o.Spec.Template.Metadata.Labels["crudbench/role"] }

// render runs helm template on the chart with the given arguments and
// returns the objects, or helm's error with what it printed.
func render(t *testing.T, args ...string) ([]object, error) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"tool", "-modfile=tools.mod", "helm", "template", "crudbench", "./crudbench"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("helm template %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var objs []object
	dec := yaml.NewDecoder(bytes.NewReader(out))
	for {
		var o object
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			t.Fatalf("helm template's output: %v", err)
		}
		if o.Kind != "" {
			objs = append(objs, o)
		}
	}
}

// mustRender is render that fails the test on an error.
func mustRender(t *testing.T, args ...string) []object {
	t.Helper()
	objs, err := render(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// apps are the enabled apps of the default values and whether each is
// probed over gRPC.
var apps = map[string]bool{
	"rest": false, "graphql": false, "htmx": false, "grpc": true, "express": false, "express-cluster": false,
	"fastify": false, "nest": false, "yoga": false, "apollo": false, "mercurius": false, "nest-graphql": false,
	"grpc-node": true, "trpc": false,
}

// TestChart renders the chart with the default values (the three-node
// split) and the one-node values, and checks what the benchmark depends
// on: Guaranteed QoS in whole CPUs for every app and the database, the
// apps' probes, metrics ports, secret and per-replica Services, the bench
// as an Indexed Job of one pod per shard, and placement by the values.
func TestChart(t *testing.T) {
	for _, tt := range []struct {
		name      string
		args      []string
		selectors map[string]map[string]string
	}{
		{"three nodes", nil, map[string]map[string]string{
			"app": {"crudbench/role": "app"}, "db": {"crudbench/role": "db"}, "load": {"crudbench/role": "load"},
		}},
		{"one node", []string{"-f", "crudbench/values-one-node.yaml"}, map[string]map[string]string{
			"app": nil, "db": nil, "load": nil,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			objs := mustRender(t, tt.args...)
			checkQoS(t, objs)
			checkApps(t, objs)
			checkBenchJob(t, objs, 2)
			for _, o := range objs {
				if r := o.role(); r != "" && !maps.Equal(o.Spec.Template.Spec.NodeSelector, tt.selectors[r]) {
					t.Errorf("%s %s (%s): nodeSelector %v, want %v", o.Kind, o.Metadata.Name, r, o.Spec.Template.Spec.NodeSelector, tt.selectors[r])
				}
			}
		})
	}
}

// checkQoS checks that every container of the apps, the database and the
// bench asks for what it is limited to, in whole CPUs: the Guaranteed QoS
// class, which the static CPU manager gives exclusive cores.
func checkQoS(t *testing.T, objs []object) {
	t.Helper()
	seen := map[string]int{}
	for _, o := range objs {
		r := o.role()
		if r == "" || o.Metadata.Labels["app.kubernetes.io/name"] == "results" {
			continue
		}
		seen[r]++
		for _, c := range slices.Concat(o.Spec.Template.Spec.InitContainers, o.Spec.Template.Spec.Containers) {
			res := c.Resources
			for _, k := range []string{"cpu", "memory"} {
				if res.Requests[k] == "" || res.Requests[k] != res.Limits[k] {
					t.Errorf("%s %s, container %s: %s request %q, limit %q: want them equal (Guaranteed QoS)", o.Kind, o.Metadata.Name, c.Name, k, res.Requests[k], res.Limits[k])
				}
			}
			if n, err := strconv.Atoi(res.Limits["cpu"]); err != nil || n < 1 {
				t.Errorf("%s %s, container %s: cpu %q, want whole CPUs (exclusive cores)", o.Kind, o.Metadata.Name, c.Name, res.Limits["cpu"])
			}
		}
	}
	if want := (map[string]int{"app": len(apps), "db": 1, "load": 1}); !maps.Equal(seen, want) {
		t.Errorf("workloads by role %v, want %v", seen, want)
	}
}

// checkApps checks every app's Deployment: its probes (/healthz for
// liveness, /readyz for readiness, or the gRPC health service's two
// names), its metrics port, AUTH_SECRET from the Secret, and a headless
// Service naming its replicas.
func checkApps(t *testing.T, objs []object) {
	t.Helper()
	headless := map[string]bool{}
	for _, o := range objs {
		if o.Kind == "Service" && o.Spec.ClusterIP == "None" {
			headless[o.Metadata.Name] = true
		}
	}
	seen := map[string]bool{}
	for _, o := range objs {
		if o.Kind != "Deployment" || o.role() != "app" {
			continue
		}
		name := o.Metadata.Labels["app.kubernetes.io/name"]
		grpc, ok := apps[name]
		if !ok {
			t.Errorf("Deployment %s: app %q is not one of the chart's", o.Metadata.Name, name)
			continue
		}
		seen[name] = true
		if !headless["crudbench-"+name+"-replicas"] {
			t.Errorf("%s: no headless Service crudbench-%s-replicas for its replicas' metrics", name, name)
		}
		c := o.Spec.Template.Spec.Containers[0]
		if want := "crudbench/" + name + ":dev"; c.Image != want {
			t.Errorf("%s: image %q, want %q", name, c.Image, want)
		}
		live, ready := c.LivenessProbe, c.ReadinessProbe
		switch {
		case live == nil || ready == nil:
			t.Errorf("%s: liveness %v, readiness %v: want both", name, live, ready)
		case grpc && (live.GRPC == nil || ready.GRPC == nil || live.GRPC.Service == nil || *live.GRPC.Service != "" || ready.GRPC.Service == nil || *ready.GRPC.Service != "crudbench.v1.Staff"):
			t.Errorf("%s: want gRPC health probes, service \"\" for liveness and crudbench.v1.Staff for readiness", name)
		case !grpc && (live.HTTPGet == nil || live.HTTPGet.Path != "/healthz" || ready.HTTPGet == nil || ready.HTTPGet.Path != "/readyz"):
			t.Errorf("%s: want liveness on /healthz and readiness on /readyz", name)
		}
		if !slices.Contains(c.Ports, port{"metrics", 9100}) {
			t.Errorf("%s: no metrics port 9100 in %v", name, c.Ports)
		}
		if !fromSecret(c.Env, "AUTH_SECRET") || !fromSecret(c.Env, "DATABASE_URL") {
			t.Errorf("%s: AUTH_SECRET and DATABASE_URL must come from the Secret", name)
		}
	}
	if len(seen) != len(apps) {
		t.Errorf("apps deployed %v, want every one of %v", slices.Sorted(maps.Keys(seen)), slices.Sorted(maps.Keys(apps)))
	}
}

// fromSecret reports whether env takes name from a Secret.
func fromSecret(env []envVar, name string) bool {
	return slices.ContainsFunc(env, func(e envVar) bool {
		return e.Name == name && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Key == name
	})
}

// checkBenchJob checks the bench: an Indexed Job running shards pods at
// once, each the shard its completion index names, meeting the others at
// the start barrier, with a shard script sh can read.
func checkBenchJob(t *testing.T, objs []object, shards int) {
	t.Helper()
	i := slices.IndexFunc(objs, func(o object) bool { return o.Kind == "Job" && o.Metadata.Name == "crudbench-bench" })
	if i < 0 {
		t.Fatal("no Job crudbench-bench")
	}
	job := objs[i]
	if job.Spec.CompletionMode != "Indexed" || job.Spec.Completions != shards || job.Spec.Parallelism != shards {
		t.Errorf("bench Job: completionMode %q, completions %v, parallelism %v: want Indexed, %d and %d", job.Spec.CompletionMode, job.Spec.Completions, job.Spec.Parallelism, shards, shards)
	}
	c := job.Spec.Template.Spec.Containers[0]
	if k := slices.Index(c.Args, "-shard"); k < 0 || k+1 == len(c.Args) || c.Args[k+1] != "$(JOB_COMPLETION_INDEX)/"+strconv.Itoa(shards) {
		t.Errorf("bench args %q: want -shard $(JOB_COMPLETION_INDEX)/%d", c.Args, shards)
	}
	if !slices.Contains(c.Args, "-barrier") || slices.Contains(c.Args, "-start-at") {
		t.Errorf("bench args %q: want -barrier, not -start-at", c.Args)
	}
	if !slices.ContainsFunc(c.Env, func(e envVar) bool {
		return e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']"
	}) {
		t.Error("bench: JOB_COMPLETION_INDEX must come from the pod's completion index annotation")
	}
	k := slices.IndexFunc(objs, func(o object) bool { return o.Kind == "ConfigMap" && o.Metadata.Name == "crudbench-bench" })
	if k < 0 {
		t.Fatal("no ConfigMap crudbench-bench with the shard script")
	}
	script := filepath.Join(t.TempDir(), "shard.sh")
	if err := os.WriteFile(script, []byte(objs[k].Data["shard.sh"]), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-n", script).CombinedOutput(); err != nil {
		t.Errorf("shard.sh: %v\n%s", err, out)
	}
}

// TestChartValues checks that the values drive what they name: the shard
// count, and a refusal of CPUs that are not whole.
func TestChartValues(t *testing.T) {
	t.Run("shards", func(t *testing.T) {
		checkBenchJob(t, mustRender(t, "--set", "bench.shards=5"), 5)
	})
	for _, tt := range []struct{ name, set, want string }{
		{"half a CPU", "apps.cpus=1.5", "whole number of CPUs"},
		{"no CPU", "database.cpus=0", "whole number of CPUs"},
		{"one shard", "bench.shards=1", "at least 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := render(t, "--set", tt.set); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("--set %s: %v, want an error saying %q", tt.set, err, tt.want)
			}
		})
	}
}
