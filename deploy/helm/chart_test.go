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
		Replicas       int    `yaml:"replicas"`
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
		Ports []struct {
			Name string `yaml:"name"`
			Port int    `yaml:"port"`
		} `yaml:"ports"`
	} `yaml:"spec"`
	Data       map[string]string `yaml:"data"`
	StringData map[string]string `yaml:"stringData"`
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
	StartupProbe   *probe `yaml:"startupProbe"`
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
	Exec *struct {
		Command []string `yaml:"command"`
	} `yaml:"exec"`
	TCPSocket *struct {
		Port string `yaml:"port"`
	} `yaml:"tcpSocket"`
}

// String says what the probe runs, for a test's message.
func (p *probe) String() string {
	switch {
	case p == nil:
		return "none"
	case p.Exec != nil:
		return fmt.Sprintf("exec %q", p.Exec.Command)
	case p.TCPSocket != nil:
		return "tcpSocket " + p.TCPSocket.Port
	case p.HTTPGet != nil:
		return "httpGet " + p.HTTPGet.Path
	case p.GRPC != nil:
		return "grpc"
	}
	return "of another kind"
}

// role is the placement role a workload's pods carry.
func (o object) role() string { return o.Spec.Template.Metadata.Labels["crudbench/role"] }

// template runs helm template on the chart with the given arguments and
// returns the manifest, or helm's error with what it printed.
func template(t *testing.T, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"tool", "-modfile=tools.mod", "helm", "template", "crudbench", "./crudbench"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("helm template %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

// render runs helm template on the chart with the given arguments and
// returns the objects, or helm's error with what it printed.
func render(t *testing.T, args ...string) ([]object, error) {
	t.Helper()
	out, err := template(t, args...)
	if err != nil {
		return nil, err
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
// as an Indexed Job of one pod per shard, placement by the values, and no
// broker while no amqp app is enabled.
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
			checkQoS(t, objs, map[string]int{"app": len(apps), "db": 1, "load": 1})
			checkApps(t, objs, apps)
			checkBenchJob(t, objs, 2)
			if slices.ContainsFunc(objs, func(o object) bool { return strings.Contains(o.Metadata.Name, "rabbitmq") }) {
				t.Error("a broker without an amqp app enabled")
			}
			for _, o := range objs {
				if r := o.role(); r != "" && !maps.Equal(o.Spec.Template.Spec.NodeSelector, tt.selectors[r]) {
					t.Errorf("%s %s (%s): nodeSelector %v, want %v", o.Kind, o.Metadata.Name, r, o.Spec.Template.Spec.NodeSelector, tt.selectors[r])
				}
			}
		})
	}
}

// checkQoS checks that every container of the apps, the database (and
// the broker) and the bench asks for what it is limited to, in whole CPUs:
// the Guaranteed QoS class, which the static CPU manager gives exclusive
// cores. want is the number of workloads of each role.
func checkQoS(t *testing.T, objs []object, want map[string]int) {
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
	if !maps.Equal(seen, want) {
		t.Errorf("workloads by role %v, want %v", seen, want)
	}
}

// checkApps checks every app's Deployment: its probes (/healthz for
// liveness, /readyz for readiness, or the gRPC health service's two
// names), its metrics port, AUTH_SECRET from the Secret, and a headless
// Service naming its replicas. apps are the apps it expects, and whether
// each is probed over gRPC.
func checkApps(t *testing.T, objs []object, apps map[string]bool) {
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

// fromSecret reports whether env takes name from the Secret's key of the
// same name.
func fromSecret(env []envVar, name string) bool { return fromSecretKey(env, name, name) }

// fromSecretKey reports whether env takes name from the Secret's key.
func fromSecretKey(env []envVar, name, key string) bool {
	return slices.ContainsFunc(env, func(e envVar) bool {
		return e.Name == name && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Key == key
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

// TestChartAMQP renders the chart with the amqp app enabled, on three
// nodes and on one, and checks its broker and how the app and the bench
// reach it: RabbitMQ with the compose file's image, on the database's
// node, Guaranteed in whole CPUs, probed as its image allows, its password
// from the Secret; the app's replicas with no Service in front of them
// (the broker shares the requests out), a headless one for their metrics,
// AMQP_URL from the Secret; the bench given the broker's URL from the
// Secret for its shard script, never in a value or argument of its own.
func TestChartAMQP(t *testing.T) {
	withAMQP := maps.Clone(apps)
	withAMQP["amqp"] = false
	for _, tt := range []struct {
		name     string
		args     []string
		selector map[string]string
	}{
		{"three nodes", nil, map[string]string{"crudbench/role": "db"}},
		{"one node", []string{"-f", "crudbench/values-one-node.yaml"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			objs := mustRender(t, append(tt.args, "--set", "apps.list.amqp.enabled=true", "--set", "apps.replicas=2")...)
			checkQoS(t, objs, map[string]int{"app": len(withAMQP), "db": 2, "load": 1})
			checkApps(t, objs, withAMQP)
			checkBenchJob(t, objs, 2)

			broker := find(t, objs, "StatefulSet", "crudbench-rabbitmq")
			if broker.role() != "db" || !maps.Equal(broker.Spec.Template.Spec.NodeSelector, tt.selector) {
				t.Errorf("broker: role %q, nodeSelector %v: want the database's, db and %v", broker.role(), broker.Spec.Template.Spec.NodeSelector, tt.selector)
			}
			c := broker.Spec.Template.Spec.Containers[0]
			if want := composeImage(t, "rabbitmq"); c.Image != want {
				t.Errorf("broker: image %q, want the compose file's %q", c.Image, want)
			}
			if !fromSecretKey(c.Env, "RABBITMQ_DEFAULT_PASS", "RABBITMQ_PASSWORD") {
				t.Error("broker: RABBITMQ_DEFAULT_PASS must come from the Secret's RABBITMQ_PASSWORD")
			}
			switch start, live, ready := c.StartupProbe, c.LivenessProbe, c.ReadinessProbe; {
			case start == nil || start.Exec == nil || !slices.Equal(start.Exec.Command, []string{"rabbitmq-diagnostics", "-q", "check_port_connectivity"}):
				t.Errorf("broker: startup probe %v, want rabbitmq-diagnostics -q check_port_connectivity", start)
			case live == nil || live.Exec == nil || !slices.Equal(live.Exec.Command, []string{"rabbitmq-diagnostics", "-q", "ping"}):
				t.Errorf("broker: liveness probe %v, want rabbitmq-diagnostics -q ping", live)
			case ready == nil || ready.TCPSocket == nil || ready.TCPSocket.Port != "amqp":
				t.Errorf("broker: readiness probe %v, want a connect to the amqp port", ready)
			}
			if svc := find(t, objs, "Service", "crudbench-rabbitmq"); len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].Port != 5672 {
				t.Errorf("broker Service: ports %v, want 5672", svc.Spec.Ports)
			}
			secret := find(t, objs, "Secret", "crudbench-secrets")
			if got, want := secret.StringData["AMQP_URL"], "amqp://crudbench:crudbench@crudbench-rabbitmq:5672/crudbench"; got != want {
				t.Errorf("Secret: AMQP_URL %q, want %q", got, want)
			}

			if slices.ContainsFunc(objs, func(o object) bool { return o.Kind == "Service" && o.Metadata.Name == "crudbench-amqp" }) {
				t.Error("a Service crudbench-amqp: the broker shares the requests out, nothing loads the app through a Service")
			}
			app := find(t, objs, "Deployment", "crudbench-amqp")
			if url := fromSecret(app.Spec.Template.Spec.Containers[0].Env, "AMQP_URL"); app.Spec.Replicas != 2 || !url {
				t.Errorf("amqp: %d replicas, AMQP_URL from the Secret %v: want 2 (apps.replicas), and true", app.Spec.Replicas, url)
			}

			bench := find(t, objs, "Job", "crudbench-bench").Spec.Template.Spec.Containers[0]
			if !fromSecret(bench.Env, "AMQP_URL") || env(bench.Env, "AMQP_APPS") != "amqp" || !slices.Contains(strings.Fields(env(bench.Env, "APPS")), "amqp:2") {
				t.Errorf("bench: AMQP_URL from the Secret, AMQP_APPS %q, APPS %q: want the Secret's, amqp and amqp:2 among them", env(bench.Env, "AMQP_APPS"), env(bench.Env, "APPS"))
			}
			if k := slices.Index(bench.Args, "-attach"); k < 0 || strings.Contains(bench.Args[k+1], "amqp") {
				t.Errorf("bench args %q: want -attach without the amqp app (the shard script adds it by AMQP_URL)", bench.Args)
			}
			for _, o := range objs {
				for _, c := range slices.Concat(o.Spec.Template.Spec.InitContainers, o.Spec.Template.Spec.Containers) {
					values := slices.Concat(c.Command, c.Args)
					for _, e := range c.Env {
						values = append(values, e.Value)
					}
					for _, v := range values {
						if strings.Contains(v, "amqp://") {
							t.Errorf("%s %s, container %s: %q holds a broker URL, which holds its password: take it from the Secret", o.Kind, o.Metadata.Name, c.Name, v)
						}
					}
				}
			}
		})
	}
}

// find returns the object of kind called name, or fails the test.
func find(t *testing.T, objs []object, kind, name string) object {
	t.Helper()
	i := slices.IndexFunc(objs, func(o object) bool { return o.Kind == kind && o.Metadata.Name == name })
	if i < 0 {
		t.Fatalf("no %s %s", kind, name)
	}
	return objs[i]
}

// env returns the value env gives name, empty when it has none.
func env(vars []envVar, name string) string {
	if i := slices.IndexFunc(vars, func(e envVar) bool { return e.Name == name }); i >= 0 {
		return vars[i].Value
	}
	return ""
}

// composeImage returns the image of a service of the compose file, which
// the chart deploys alike.
func composeImage(t *testing.T, service string) string {
	t.Helper()
	data, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image string `yaml:"image"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &compose); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	image := compose.Services[service].Image
	if image == "" {
		t.Fatalf("docker-compose.yml: no image for service %s", service)
	}
	return image
}
