package helm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubs writes, into a folder of their own, an nslookup that answers as
// busybox's does (one address per replica, two for rest and amqp) and a bench that
// records its arguments in calls and makes the results folder a run
// makes (a merge: the merged folder). It returns the folder.
func stubs(t *testing.T, calls string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"nslookup": `#!/bin/sh
printf 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n'
case $2 in
crudbench-rest-replicas.bench.svc.cluster.local) printf 'Name:\t%s\nAddress: 10.0.0.1\nName:\t%s\nAddress: 10.0.0.2\n' "$2" "$2" ;;
crudbench-grpc-replicas.bench.svc.cluster.local) printf 'Name:\t%s\nAddress: 10.0.0.3\n' "$2" ;;
crudbench-amqp-replicas.bench.svc.cluster.local) printf 'Name:\t%s\nAddress: 10.0.0.4\nName:\t%s\nAddress: 10.0.0.5\n' "$2" "$2" ;;
*) echo "** server can't find $2: NXDOMAIN"; exit 1 ;;
esac
`,
		"bench": `#!/bin/sh
echo "$*" >>` + calls + `
if [ "$1" = merge ]; then mkdir -p "$3/20260301-120100"; exit 0; fi
while [ $# -gt 0 ]; do [ "$1" = -out ] && out=$2; shift; done
mkdir -p "$out/20260301-120000-shard"
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// shard runs the chart's shard script as shard index of 2 of the Job
// whose folder is run, with the given apps and wait, and returns its
// output and error.
func shard(t *testing.T, bin, run string, index, apps, wait string) (string, error) {
	t.Helper()
	return shardWith(t, bin, run, index, apps, wait, nil)
}

// shardWith is shard with more of the Job's environment and the Job's
// args before -shard.
func shardWith(t *testing.T, bin, run string, index, apps, wait string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", append(append([]string{"crudbench/files/shard.sh"}, args...), "-shard", index+"/2")...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "BENCH="+filepath.Join(bin, "bench"),
		"INDEX="+index, "SHARDS=2", "RUN_DIR="+run, "APPS="+apps, "PREFIX=crudbench", "NAMESPACE=bench",
		"CLUSTER_DOMAIN=cluster.local", "METRICS_PORT=9100", "WAIT_SECONDS="+wait)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestShardScript runs the bench Job's shard script with a stub bench:
// each shard runs the bench with every replica's metrics address, shard 0
// merges both shards' folders once both have left their markers and
// points latest at the run, a shard that ran to the end does not run
// again, and a missing replica or shard ends the wait with its name.
func TestShardScript(t *testing.T) {
	t.Run("merge", func(t *testing.T) {
		calls := filepath.Join(t.TempDir(), "calls")
		bin, run := stubs(t, calls), filepath.Join(t.TempDir(), "job-uid")
		for _, i := range []string{"1", "0", "0"} {
			if out, err := shard(t, bin, run, i, "rest:2 grpc:1", "5"); err != nil {
				t.Fatalf("shard %s: %v\n%s", i, err, out)
			}
		}
		data, err := os.ReadFile(calls)
		if err != nil {
			t.Fatal(err)
		}
		metrics := "-metrics-url rest=http://10.0.0.1:9100/metrics,rest=http://10.0.0.2:9100/metrics,grpc=http://10.0.0.3:9100/metrics"
		want := []string{
			metrics + " -out " + run + "/shard1 -shard 1/2",
			metrics + " -out " + run + "/shard0 -shard 0/2",
			"merge -out " + run + "/merged " + run + "/shard0/20260301-120000-shard " + run + "/shard1/20260301-120000-shard",
			"merge -out " + run + "/merged " + run + "/shard0/20260301-120000-shard " + run + "/shard1/20260301-120000-shard",
		}
		if got := strings.Split(strings.TrimSpace(string(data)), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("bench ran with\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if target, err := os.Readlink(filepath.Join(filepath.Dir(run), "latest")); err != nil || target != "job-uid" {
			t.Errorf("latest points at %q (%v), want job-uid", target, err)
		}
	})
	for _, tt := range []struct{ name, index, apps, want string }{
		{"missing replica", "1", "rest:3", "rest has 2 ready replicas behind crudbench-rest-replicas, not 3"},
		{"missing shard", "0", "grpc:1", "shard 1 left no marker of success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := stubs(t, filepath.Join(t.TempDir(), "calls"))
			out, err := shard(t, bin, filepath.Join(t.TempDir(), "job-uid"), tt.index, tt.apps, "1")
			if err == nil || !strings.Contains(out, tt.want) {
				t.Errorf("err %v, output %q: want a failure saying %q", err, out, tt.want)
			}
		})
	}
}

// TestShardScriptAMQP runs the shard script with an amqp app: it attaches
// the app by the broker's URL from AMQP_URL, beside the apps the Job's
// -attach names, alone when it names none or has no -attach, with every
// replica's metrics, and prints no password; without AMQP_URL it fails
// saying so.
func TestShardScriptAMQP(t *testing.T) {
	const url = "amqp://crudbench:s3cret@crudbench-rabbitmq:5672/crudbench"
	env := []string{"AMQP_APPS=amqp", "AMQP_URL=" + url}
	metrics := "-metrics-url rest=http://10.0.0.1:9100/metrics,rest=http://10.0.0.2:9100/metrics,amqp=http://10.0.0.4:9100/metrics,amqp=http://10.0.0.5:9100/metrics"
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"beside others", []string{"-attach", "rest=http://crudbench-rest:8081", "-profiles", "light"},
			"-attach rest=http://crudbench-rest:8081,amqp=amqp@" + url + " -profiles light -shard 1/2"},
		{"alone", []string{"-attach", "", "-profiles", "light"}, "-attach amqp=amqp@" + url + " -profiles light -shard 1/2"},
		{"no -attach", []string{"-profiles", "light"}, "-profiles light -shard 1/2 -attach amqp=amqp@" + url},
	} {
		t.Run(tt.name, func(t *testing.T) {
			calls := filepath.Join(t.TempDir(), "calls")
			run := filepath.Join(t.TempDir(), "job-uid")
			out, err := shardWith(t, stubs(t, calls), run, "1", "rest:2 amqp:2", "5", env, tt.args...)
			if err != nil {
				t.Fatalf("shard 1: %v\n%s", err, out)
			}
			if strings.Contains(out, "s3cret") {
				t.Errorf("the shard printed the broker's password:\n%s", out)
			}
			data, err := os.ReadFile(calls)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.TrimSpace(string(data)), metrics+" -out "+run+"/shard1 "+tt.want; got != want {
				t.Errorf("bench ran with\n%s\nwant\n%s", got, want)
			}
		})
	}
	t.Run("no AMQP_URL", func(t *testing.T) {
		bin := stubs(t, filepath.Join(t.TempDir(), "calls"))
		out, err := shardWith(t, bin, filepath.Join(t.TempDir(), "job-uid"), "1", "amqp:2", "1", []string{"AMQP_APPS=amqp"}, "-attach", "")
		if want := "AMQP_URL is empty"; err == nil || !strings.Contains(out, want) {
			t.Errorf("err %v, output %q: want a failure saying %q", err, out, want)
		}
	})
}
