//go:build k8s

// The chart on a real cluster: make test-k8s brings up deploy/cluster's
// one-node Kubernetes, runs these tests (go test -tags k8s -run
// '^TestCluster' ./deploy/helm/) and takes the cluster down, passed or not.
// They need the cluster up (deploy/cluster/cluster.sh up), and
// TestClusterInstall a Docker daemon with the Dockerfile's base images.

package helm_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"crudbench/bench/barrier"
	"crudbench/bench/results"
)

const (
	// clusterScript is deploy/cluster's script, from this package's folder.
	clusterScript = "../cluster/cluster.sh"
	// e2eTag is the tag of the images the test builds: never latest, which
	// the kubelet would try to pull.
	e2eTag = "k8s-test"
	// e2eValues are the test's values over the one-node ones.
	e2eValues = "testdata/one-cpu.yaml"
	// e2eRequests is what testdata/one-cpu.yaml's run sends to each app:
	// 4 s at 20 req/s.
	e2eRequests = 80
	// lateBy is how late testdata/one-cpu.yaml starts shard 1.
	lateBy = 20 * time.Second
)

// e2eApps are the apps testdata/one-cpu.yaml leaves enabled, and the
// images the test builds: those apps' Dockerfile targets, the seed's and
// the bench's.
var (
	e2eApps   = []string{"graphql", "grpc", "htmx", "rest"}
	e2eImages = append([]string{"dbctl", "bench"}, e2eApps...)
)

// command runs name with args and stdin, and returns its standard output,
// or an error carrying what it printed on standard error.
func command(t *testing.T, stdin []byte, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// kubectl runs the cluster's kubectl as its admin.
func kubectl(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return command(t, nil, clusterScript, append([]string{"kubectl"}, args...)...)
}

// mustKubectl is kubectl that fails the test on an error.
func mustKubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, err := kubectl(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// apply applies manifest with the cluster's kubectl and the given flags.
func apply(t *testing.T, manifest string, args ...string) (string, error) {
	t.Helper()
	return command(t, []byte(manifest), clusterScript, append([]string{"kubectl", "apply", "-f", "-"}, args...)...)
}

// helm runs the chart's pinned Helm against the cluster.
func helm(t *testing.T, kubeconfig string, args ...string) (string, error) {
	t.Helper()
	return command(t, nil, "go", append([]string{"tool", "-modfile=tools.mod", "helm", "--kubeconfig", kubeconfig}, args...)...)
}

// cluster returns the admin kubeconfig of the local cluster, failing the
// test when the cluster does not answer.
func cluster(t *testing.T) string {
	t.Helper()
	if _, err := kubectl(t, "get", "--raw", "/readyz"); err != nil {
		t.Fatalf("the local cluster does not answer: bring it up with deploy/cluster/cluster.sh up (make test-k8s does, and takes it down after): %v", err)
	}
	out, err := command(t, nil, clusterScript, "kubeconfig")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// namespace creates a namespace for the test, deleted when it ends, and
// returns its name.
func namespace(t *testing.T, name string) string {
	t.Helper()
	if _, err := kubectl(t, "delete", "namespace", name, "--ignore-not-found", "--wait", "--timeout=120s"); err != nil {
		t.Fatal(err)
	}
	mustKubectl(t, "create", "namespace", name)
	t.Cleanup(func() {
		if _, err := kubectl(t, "delete", "namespace", name, "--wait", "--timeout=120s"); err != nil {
			t.Errorf("deleting the test's namespace: %v", err)
		}
	})
	return name
}

// TestClusterServerDryRun has the API server check every object the chart
// renders, with the default values, the one-node values and the test's,
// without creating any: its schemas, defaults and admission, which helm
// lint and template do not know.
func TestClusterServerDryRun(t *testing.T) {
	cluster(t)
	ns := namespace(t, "crudbench-dry-run")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"three nodes", nil},
		{"one node", []string{"-f", "crudbench/values-one-node.yaml"}},
		{"the end-to-end test's", []string{"-f", "crudbench/values-one-node.yaml", "-f", e2eValues}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--namespace", ns}, tt.args...)
			manifest, err := template(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			out, err := apply(t, string(manifest), "-n", ns, "--dry-run=server")
			if err != nil {
				t.Fatal(err)
			}
			objects := len(mustRender(t, args...))
			if got := strings.Count(out, "(server dry run)"); got != objects {
				t.Errorf("the API server took %d objects of the %d rendered:\n%s", got, objects, out)
			}
		})
	}
}

// TestClusterInstall installs the chart on the local cluster with the
// test's values (testdata/one-cpu.yaml: four Go apps, Burstable, shard 1
// started 20 s late), from images built with the project's Dockerfile:
// every app must be Ready, the seed Job done and the two-shard bench Job
// complete; the merged report, fetched with the documented kubectl cp,
// must say every app validated and count both shards' requests once; and
// the start barrier must have held shard 0 until the late shard was ready,
// both then starting at the shared start, with the skew in the report.
func TestClusterInstall(t *testing.T) {
	kubeconfig := cluster(t)
	buildImages(t)
	images := []string{"postgres:15-alpine"}
	for _, target := range e2eImages {
		images = append(images, "crudbench/"+target+":"+e2eTag)
	}
	if out, err := command(t, nil, clusterScript, append([]string{"load"}, images...)...); err != nil {
		t.Fatalf("loading the images into the node: %v\n%s", err, out)
	}

	ns := namespace(t, "crudbench-e2e")
	resultsDir := t.TempDir() // the node's folder for the results (hostPath)
	t.Cleanup(func() {
		if _, err := helm(t, kubeconfig, "uninstall", "crudbench", "-n", ns, "--wait", "--timeout", "5m"); err != nil {
			t.Errorf("helm uninstall: %v", err)
		}
	})
	t.Cleanup(func() {
		if t.Failed() {
			diagnose(t, ns)
		}
	})
	start := time.Now()
	if _, err := helm(t, kubeconfig, "install", "crudbench", "./crudbench", "-n", ns,
		"-f", "crudbench/values-one-node.yaml", "-f", e2eValues,
		"--set", "image.tag="+e2eTag, "--set", "results.hostPath="+resultsDir,
		"--wait", "--timeout", "15m"); err != nil {
		t.Fatalf("helm install: %v", err)
	}
	t.Logf("helm install, the bench Job included, took %s", time.Since(start).Round(time.Second))

	checkReady(t, ns)
	if out, _ := kubectl(t, "-n", ns, "get", "job", "crudbench-seed", "--ignore-not-found", "-o", "name"); out != "" {
		t.Errorf("the seed Job is still there: its hook deletes it only once it has succeeded")
	}
	started := checkBenchPods(t, ns)

	// The documented command fetches the merged report; the Job's own
	// folder holds the barrier's state and the shards' folders.
	local := t.TempDir()
	pod := strings.TrimSpace(mustKubectl(t, "-n", ns, "get", "pod", "-l", "app.kubernetes.io/instance=crudbench,app.kubernetes.io/name=results",
		"-o", "jsonpath={.items[0].metadata.name}"))
	uid := strings.TrimSpace(mustKubectl(t, "-n", ns, "get", "job", "crudbench-bench", "-o", "jsonpath={.metadata.uid}"))
	mustKubectl(t, "-n", ns, "cp", pod+":/results/latest/merged", filepath.Join(local, "merged"))
	mustKubectl(t, "-n", ns, "cp", pod+":/results/"+uid, filepath.Join(local, "run"))

	merged := readRunIn(t, filepath.Join(local, "merged"))
	checkMerged(t, merged)
	shards := []*results.Run{readRunIn(t, filepath.Join(local, "run", "shard0")), readRunIn(t, filepath.Join(local, "run", "shard1"))}
	checkLateShard(t, filepath.Join(local, "run", "barrier"), merged, shards, started)
}

// buildImages builds the test's images with the project's Dockerfile,
// tagged e2eTag, from the committed tree (git archive HEAD): what the
// commit under test holds, not what a shared checkout's unfinished edits
// make of it.
func buildImages(t *testing.T) {
	t.Helper()
	if _, err := command(t, nil, "docker", "info"); err != nil {
		t.Fatalf("building the chart's images needs a running Docker daemon (Debian: apt-get install docker.io, then start dockerd) with the Dockerfile's base images, golang:1.26-bookworm and busybox:1.37, and postgres:15-alpine for the chart: %v", err)
	}
	commit, err := command(t, nil, "git", "rev-parse", "--short=12", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	tree, err := command(t, nil, "git", "-C", "../..", "archive", "--format=tar", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range e2eImages {
		start := time.Now()
		if _, err := command(t, []byte(tree), "docker", "build", "-q", "--force-rm", "--target", target, "--build-arg", "COMMIT="+strings.TrimSpace(commit),
			"-t", "crudbench/"+target+":"+e2eTag, "-"); err != nil {
			t.Fatalf("docker build of %s: %v", target, err)
		}
		t.Logf("built crudbench/%s:%s in %s", target, e2eTag, time.Since(start).Round(time.Second))
	}
}

// checkReady checks that every app's Deployment, the results pod's and
// PostgreSQL's StatefulSet have all their replicas ready.
func checkReady(t *testing.T, ns string) {
	t.Helper()
	var list struct {
		Items []struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name   string            `json:"name"`
				Labels map[string]string `json:"labels"`
			} `json:"metadata"`
			Spec struct {
				Replicas int `json:"replicas"`
			} `json:"spec"`
			Status struct {
				ReadyReplicas int `json:"readyReplicas"`
			} `json:"status"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(mustKubectl(t, "-n", ns, "get", "deployments,statefulsets", "-o", "json")), &list); err != nil {
		t.Fatal(err)
	}
	var ready []string
	for _, o := range list.Items {
		if o.Spec.Replicas < 1 || o.Status.ReadyReplicas != o.Spec.Replicas {
			t.Errorf("%s %s: %d of %d replicas ready", o.Kind, o.Metadata.Name, o.Status.ReadyReplicas, o.Spec.Replicas)
		}
		ready = append(ready, o.Metadata.Labels["app.kubernetes.io/name"])
	}
	slices.Sort(ready)
	if want := slices.Sorted(slices.Values(append([]string{"postgres", "results"}, e2eApps...))); !slices.Equal(ready, want) {
		t.Errorf("workloads %v, want %v", ready, want)
	}
}

// checkBenchPods checks that the bench Job completed with one pod per
// shard, none retried, and returns when each shard's container started,
// by index.
func checkBenchPods(t *testing.T, ns string) map[int]time.Time {
	t.Helper()
	var job struct {
		Status struct {
			Succeeded int `json:"succeeded"`
			Failed    int `json:"failed"`
		} `json:"status"`
	}
	if err := json.Unmarshal([]byte(mustKubectl(t, "-n", ns, "get", "job", "crudbench-bench", "-o", "json")), &job); err != nil {
		t.Fatal(err)
	}
	if job.Status.Succeeded != 2 || job.Status.Failed != 0 {
		t.Errorf("bench Job: %d pods succeeded, %d failed; want 2 and 0", job.Status.Succeeded, job.Status.Failed)
	}
	var pods struct {
		Items []struct {
			Metadata struct {
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
			Status struct {
				ContainerStatuses []struct {
					State struct {
						Terminated *struct {
							StartedAt time.Time `json:"startedAt"`
						} `json:"terminated"`
					} `json:"state"`
				} `json:"containerStatuses"`
			} `json:"status"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(mustKubectl(t, "-n", ns, "get", "pods", "-l", "job-name=crudbench-bench", "-o", "json")), &pods); err != nil {
		t.Fatal(err)
	}
	started := map[int]time.Time{}
	for _, p := range pods.Items {
		var index int
		if _, err := fmt.Sscan(p.Metadata.Annotations["batch.kubernetes.io/job-completion-index"], &index); err != nil {
			t.Fatalf("a bench pod without a completion index: %v", err)
		}
		if len(p.Status.ContainerStatuses) != 1 || p.Status.ContainerStatuses[0].State.Terminated == nil {
			t.Fatalf("shard %d's pod has not terminated: %+v", index, p.Status)
		}
		started[index] = p.Status.ContainerStatuses[0].State.Terminated.StartedAt
	}
	if len(pods.Items) != 2 || len(started) != 2 {
		t.Fatalf("%d bench pods for %d shards, want one each for 0 and 1", len(pods.Items), len(started))
	}
	return started
}

// readRunIn reads the results of the one results folder in dir.
func readRunIn(t *testing.T, dir string) *results.Run {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	if len(folders) != 1 {
		t.Fatalf("%s holds the folders %v, want one results folder", dir, folders)
	}
	run, err := results.Read(filepath.Join(dir, folders[0], results.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// checkMerged checks the merged report: two shards merged, every app
// validated, and every request of the schedule counted once, none of them
// failed.
func checkMerged(t *testing.T, run *results.Run) {
	t.Helper()
	if run.Settings.Shards != 2 || run.Settings.Shard != nil {
		t.Errorf("merged settings: shards %d, shard %+v; want a merge of 2 shards", run.Settings.Shards, run.Settings.Shard)
	}
	validated := map[string]bool{}
	for _, v := range run.Validations {
		if !v.OK {
			t.Errorf("%s failed validation of %s: %s", v.App, v.Scenario, v.Problem)
		}
		validated[v.App] = v.OK
	}
	for _, app := range e2eApps {
		if !validated[app] {
			t.Errorf("%s: not validated (validations %+v)", app, run.Validations)
		}
	}
	if len(run.Results) != len(e2eApps) {
		t.Errorf("%d merged results, want one per app (%v)", len(run.Results), e2eApps)
	}
	for _, r := range run.Results {
		if r.Verdict == results.VerdictSkipped || r.Verdict == results.VerdictFailed {
			t.Errorf("%s %s: %s: %s", r.App, r.Scenario, r.Verdict, r.Reason)
		}
		if r.Requests != e2eRequests || r.SuccessRatio != 1 {
			t.Errorf("%s %s: %d requests, success %v; want the schedule's %d once, every one answered", r.App, r.Scenario, r.Requests, r.SuccessRatio, e2eRequests)
		}
	}
}

// checkLateShard checks the barrier's work with shard 1 started lateBy
// late: shard 0 was ready first and waited, the start was set once shard
// 1 was ready, both shards ran from it and learned it before it came (the
// start skew: both started at the one start, neither late), and the
// merged report says so, the first and last shards' ready times apart.
func checkLateShard(t *testing.T, barrierDir string, merged *results.Run, shards []*results.Run, started map[int]time.Time) {
	t.Helper()
	start, set, err := barrier.ReadStart(barrierDir)
	if err != nil || !set {
		t.Fatalf("the barrier's start in %s: set %v, %v", barrierDir, set, err)
	}
	spread := start.Ready[1].Sub(start.Ready[0])
	t.Logf("barrier: shard 0 ready at %s, shard 1 at %s (%s later; its container started at %s), start set at %s for %s",
		start.Ready[0].Format(time.StampMilli), start.Ready[1].Format(time.StampMilli), spread.Round(time.Millisecond),
		started[1].Format(time.Stamp), start.SetAt.Format(time.StampMilli), start.At.Format(time.StampMilli))
	switch {
	case len(start.Missing) != 0:
		t.Errorf("shard 0 started without shards %v", start.Missing)
	case start.Ready[1].Before(started[1].Add(lateBy)):
		t.Errorf("shard 1 was ready at %s, less than %s after its container started (%s): it was not held back", start.Ready[1], lateBy, started[1])
	case spread <= 0:
		t.Errorf("shard 0 was ready %s after the late shard 1: its validation outlasted the delay, so the barrier had no one to wait for", -spread)
	case start.SetAt.Before(start.Ready[1]) || !start.At.After(start.SetAt):
		t.Errorf("the start was set at %s for %s, shard 1 ready at %s: want it set once shard 1 was ready, for later", start.SetAt, start.At, start.Ready[1])
	}
	for i, run := range shards {
		if run.Settings.Shard == nil || !run.Settings.Shard.StartAt.Equal(start.At) {
			t.Errorf("shard %d ran from %+v, want the barrier's start %s", i, run.Settings.Shard, start.At)
		}
		for _, r := range run.Results {
			if r.Verdict == results.VerdictSkipped {
				t.Errorf("shard %d skipped %s on %s: %s", i, r.Scenario, r.App, r.Reason)
			}
		}
	}
	// The merged report carries each shard's barrier and placement notes,
	// the other shards' under their name.
	wantSpread := fmt.Sprintf("the first and last %s apart", spread.Round(time.Millisecond))
	for i := range 2 {
		prefix := ""
		if i > 0 {
			prefix = fmt.Sprintf("Shard %d: ", i)
		}
		barrier := regexp.MustCompile(fmt.Sprintf(`^%sStart barrier: shard %d/2 was ready at .*; this shard learned it (\S+) before the start\.$`, prefix, i))
		note := slices.IndexFunc(merged.Notes, barrier.MatchString)
		if note < 0 {
			t.Errorf("the merged report has no note that shard %d met the others at the barrier and learned the start before it: notes %q", i, merged.Notes)
			continue
		}
		t.Logf("report: %s", merged.Notes[note])
		if !strings.Contains(merged.Notes[note], wantSpread) {
			t.Errorf("shard %d's barrier note %q does not say %q", i, merged.Notes[note], wantSpread)
		}
		placement := fmt.Sprintf("%sShard %d/2 ran in pod ", prefix, i)
		if !slices.ContainsFunc(merged.Notes, func(n string) bool {
			return strings.HasPrefix(n, placement) && strings.HasSuffix(n, "QoS class Burstable.")
		}) {
			t.Errorf("the merged report does not say where shard %d ran and that its QoS class was Burstable: notes %q", i, merged.Notes)
		}
	}
}

// diagnose logs what the cluster says of the test's namespace: its pods,
// its events and the logs of the pods that are not Ready or failed.
func diagnose(t *testing.T, ns string) {
	t.Helper()
	for _, args := range [][]string{
		{"-n", ns, "get", "pods,jobs", "-o", "wide"},
		{"-n", ns, "get", "events", "--sort-by=.lastTimestamp"},
		{"-n", ns, "logs", "-l", "job-name=crudbench-bench", "--prefix", "--tail=40"},
		{"-n", ns, "logs", "-l", "app.kubernetes.io/name=seed", "--prefix", "--tail=40", "--all-containers"},
	} {
		out, err := kubectl(t, args...)
		t.Logf("kubectl %s:\n%s%v", strings.Join(args, " "), out, err)
	}
}

// TestClusterPlacement renders the chart with its default values, the
// three-node split, and applies it to the local cluster beside three fake
// nodes that kwok keeps Ready (cluster.sh fake-nodes), labelled app, db
// and load: the scheduler must put every app on kwok-app, PostgreSQL on
// kwok-db, and the seed, the bench shards and the results pod on
// kwok-load, and nothing on the real node, which has no role. Nothing
// runs there: kwok only reports the pods Ready, and a Job's pods done.
func TestClusterPlacement(t *testing.T) {
	cluster(t)
	if out, err := command(t, nil, clusterScript, "fake-nodes"); err != nil {
		t.Fatalf("cluster.sh fake-nodes: %v\n%s", err, out)
	}
	ns := namespace(t, "crudbench-placement")
	t.Cleanup(func() {
		// No kubelet sees a fake node's pods go, and a Job's pods never end
		// there, so they keep the Job's tracking finalizer: delete the Jobs
		// (leaving their pods), then the finalizers, then the pods, before
		// the namespace goes, or its deletion waits for them.
		if _, err := kubectl(t, "-n", ns, "delete", "jobs", "--all", "--cascade=orphan", "--wait"); err != nil {
			t.Error(err)
		}
		out, err := kubectl(t, "-n", ns, "get", "pods", "-o", "name")
		if err != nil {
			t.Error(err)
			return
		}
		for _, pod := range strings.Fields(out) {
			if _, err := kubectl(t, "-n", ns, "patch", pod, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`); err != nil {
				t.Error(err)
			}
		}
		if _, err := kubectl(t, "-n", ns, "delete", "pods", "--all", "--force", "--grace-period=0"); err != nil {
			t.Error(err)
		}
	})
	// No storage provisioner here: a volume for each of the chart's
	// claims, bound to it ahead (no pod mounts it, none runs).
	var pvs []string
	for _, pv := range []struct{ claim, size string }{
		{"data-crudbench-postgres-0", "4Gi"},
		{"crudbench-results", "2Gi"},
	} {
		name := ns + "-" + pv.claim
		if _, err := apply(t, fmt.Sprintf(`apiVersion: v1
kind: PersistentVolume
metadata: {name: %s}
spec:
  capacity: {storage: %s}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Delete
  hostPath: {path: /nonexistent/%s}
  claimRef: {namespace: %s, name: %s}
`, name, pv.size, name, ns, pv.claim)); err != nil {
			t.Fatal(err)
		}
		pvs = append(pvs, name)
	}
	t.Cleanup(func() {
		if _, err := kubectl(t, append([]string{"delete", "pv", "--wait=false"}, pvs...)...); err != nil {
			t.Errorf("deleting the test's volumes: %v", err)
		}
	})

	objs := mustRender(t, "--namespace", ns)
	manifest, err := template(t, "--namespace", ns)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply(t, string(manifest), "-n", ns); err != nil {
		t.Fatal(err)
	}
	// Every pod the workloads make: one per replica, one per shard.
	want := 0
	for _, o := range objs {
		switch o.Kind {
		case "Deployment", "StatefulSet":
			want++ // one replica each in the default values
		case "Job":
			want += max(1, o.Spec.Completions)
		}
	}

	type pod struct {
		Metadata struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			NodeName string `json:"nodeName"`
		} `json:"spec"`
	}
	var pods []pod
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var list struct{ Items []pod }
		if err := json.Unmarshal([]byte(mustKubectl(t, "-n", ns, "get", "pods", "-o", "json")), &list); err != nil {
			t.Fatal(err)
		}
		pods = list.Items
		scheduled := 0
		for _, p := range pods {
			if p.Spec.NodeName != "" {
				scheduled++
			}
		}
		if len(pods) >= want && scheduled == len(pods) {
			break
		}
		if time.Now().After(deadline) {
			out, _ := kubectl(t, "-n", ns, "get", "pods", "-o", "wide")
			events, _ := kubectl(t, "-n", ns, "get", "events", "--field-selector", "reason=FailedScheduling")
			t.Fatalf("%d of %d pods scheduled after 3 minutes:\n%s\n%s", scheduled, want, out, events)
		}
		time.Sleep(time.Second) // polling the API for the scheduler's work
	}
	byNode := map[string]int{}
	for _, p := range pods {
		role := p.Metadata.Labels["crudbench/role"]
		if p.Metadata.Labels["app.kubernetes.io/name"] == "seed" {
			role = "load" // the seed Job runs where the load does (placement.load)
		}
		if want := "kwok-" + role; role == "" || p.Spec.NodeName != want {
			t.Errorf("pod %s (role %q) is on node %s, want %s", p.Metadata.Name, role, p.Spec.NodeName, want)
		}
		byNode[p.Spec.NodeName]++
	}
	t.Logf("pods by node: %v", byNode)
	apps := 0
	for _, o := range objs {
		if o.Kind == "Deployment" && o.role() == "app" {
			apps++
		}
	}
	// The load: the seed, the shards and the results pod.
	if byNode["kwok-app"] != apps || byNode["kwok-db"] != 1 || byNode["kwok-load"] != 2+2 {
		t.Errorf("pods by node %v: want %d apps on kwok-app, PostgreSQL on kwok-db, the seed, 2 shards and the results pod on kwok-load", byNode, apps)
	}
}
