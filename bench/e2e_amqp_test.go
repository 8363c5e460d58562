package main_test

import (
	"bufio"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"crudbench/bench/broker"
	"crudbench/bench/report"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// requireBroker fails the test, saying what to install, when no
// rabbitmq-server can be found: the amqp kind's runs need one.
func requireBroker(t *testing.T) {
	t.Helper()
	if _, _, err := broker.FindServer(); err != nil {
		t.Fatalf("the amqp kind needs RabbitMQ: %v", err)
	}
}

// TestAMQP runs the amqp app as a user does, in the embedded mode: a
// throwaway PostgreSQL and a throwaway RabbitMQ the runner starts, the app
// built and started, every scenario validated and measured briefly. Every
// validation passes, every run holds its rate with every request
// answered, the raw files read in vegeta as the report counts them, and
// the broker is measured beside the app: its CPU and memory per request
// and its queue's depth.
func TestAMQP(t *testing.T) {
	requireBroker(t)
	var rates []string
	for _, s := range scenario.All {
		rates = append(rates, s+"="+strconv.Itoa(e2eRate))
	}
	run, dir, console := runBench(t, []string{"DATABASE_URL=", "AMQP_URL="},
		"-apps", "amqp", "-scenarios", "all", "-rate", strings.Join(rates, ","),
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "0s")

	if !strings.Contains(console, "RabbitMQ is up") {
		t.Error("the console does not say the runner started a broker")
	}
	if !strings.HasPrefix(run.Environment.Broker, "RabbitMQ 3.") {
		t.Errorf("the environment names the broker %q, want RabbitMQ and its version", run.Environment.Broker)
	}
	// The broker is on the non-app side of -cpus, with PostgreSQL.
	if c := run.Settings.CPUs; c == nil || c.Broker == "" || c.Broker != c.Postgres || c.Broker == c.Apps["amqp"] && c.Isolated {
		t.Errorf("CPUs %+v: want the broker's beside PostgreSQL's, apart from the app's", c)
	}
	if len(run.Validations) != len(scenario.All) {
		t.Errorf("%d validations, want %d", len(run.Validations), len(scenario.All))
	}
	for _, v := range run.Validations {
		if !v.OK {
			t.Errorf("validation of %s on %s failed: %s", v.Scenario, v.App, v.Problem)
		}
	}
	if run.Settings.AMQPConns != 1 || !slices.ContainsFunc(run.Notes, func(n string) bool { return strings.HasPrefix(n, "amqp: every request is a request message") }) {
		t.Errorf("AMQP connections %d, notes %q: want 1, and a note that says so", run.Settings.AMQPConns, run.Notes)
	}
	if len(run.Results) != len(scenario.All) {
		t.Fatalf("%d results, want one per scenario", len(run.Results))
	}
	for _, r := range run.Results {
		t.Run(r.Scenario, func(t *testing.T) {
			if !r.Measured() || r.Requests != 2*e2eRate || r.SuccessRatio != 1 || len(r.Errors) != 0 {
				t.Errorf("verdict %s, requests %d, success %v, errors %q; want measured, %d, 1, none", r.Verdict, r.Requests, r.SuccessRatio, r.Errors, 2*e2eRate)
			}
			checkRates(t, r.App, r)
			if l := r.Latency; !(0 < l.P50 && l.P50 <= l.P99 && l.P99 <= l.Max) || r.BytesIn <= 0 && r.Scenario != scenario.Write {
				t.Errorf("latency %+v, bytes in %.1f", l, r.BytesIn)
			}
			if c := r.AppCost; !c.Available || c.CPUMsPerRequest <= 0 || c.RSSMaxMB <= 0 {
				t.Errorf("app cost %+v", c)
			}
			if r.Scenario != scenario.Control && (!r.DB.CPUAvailable || r.DB.StatementsPerRequest <= 0) {
				t.Errorf("database cost %+v", r.DB)
			}
			// Every request and reply goes through the broker: it spends
			// CPU on each, whatever the scenario.
			b := r.Broker
			if b == nil || !b.CPUAvailable || b.PID <= 0 || b.CPUMsPerRequest <= 0 || b.RSSMeanMB <= 0 || b.RSSMaxMB < b.RSSMeanMB || !b.QueueAvailable || b.QueueDepthMean < 0 {
				t.Errorf("broker cost %+v", b)
			}
			if fi, err := os.Stat(filepath.Join(dir, results.BrokerSamplesFile(r.SamplesFile))); err != nil || fi.Size() == 0 {
				t.Errorf("the broker's samples: %v", err)
			}
			checkVegetaReport(t, dir, r)
		})
	}
	md, err := os.ReadFile(filepath.Join(dir, report.MarkdownFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "### The broker: light") {
		t.Error("the report has no table of the broker")
	}
}

// brokerUp is the console's line of the broker the runner started, with
// the pids of its processes.
var brokerUp = regexp.MustCompile(`RabbitMQ is up \(beam\.smp pid (\d+), its processes \[([\d ]+)\]`)

// TestAMQPRunnerStopped stops the runner while it measures an amqp app
// and checks that no process of its broker is left: killed (SIGKILL: no
// tear-down runs), the Erlang VM, its helpers and its epmd die with it;
// interrupted (SIGINT, a terminal's Ctrl-C), it stops the node and removes
// its folder before it exits.
func TestAMQPRunnerStopped(t *testing.T) {
	requireBroker(t)
	t.Run("SIGKILL", func(t *testing.T) { stopMidRun(t, syscall.SIGKILL) })
	t.Run("SIGINT", func(t *testing.T) { stopMidRun(t, syscall.SIGINT) })
}

// stopMidRun sends sig to a runner in the measured window of an amqp
// app's run and waits until none of its broker's processes is left.
func stopMidRun(t *testing.T, sig syscall.Signal) {
	out := t.TempDir()
	cmd := exec.Command(benchBinary(t), "-apps", "amqp", "-scenarios", "read-one", "-rate", "read-one=20",
		"-warmup", "1s", "-duration", "120s", "-prime", "0s", "-out", out)
	cmd.Env = append(os.Environ(), "DATABASE_URL=", "AMQP_URL=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})

	sc := bufio.NewScanner(stdout)
	var pids []int
	var console strings.Builder
	for sc.Scan() {
		line := sc.Text()
		console.WriteString(line + "\n")
		if m := brokerUp.FindStringSubmatch(line); m != nil {
			for _, f := range strings.Fields(m[2]) {
				pid, _ := strconv.Atoi(f)
				pids = append(pids, pid)
			}
		}
		if strings.HasPrefix(line, "Measuring ") {
			break
		}
	}
	go func() { // keep the pipe drained
		for sc.Scan() {
		}
	}()
	if len(pids) < 2 {
		t.Fatalf("the runner named no broker processes (want the VM and epmd at least):\n%s", console.String())
	}
	// The load is in its measured window once the window's first results
	// reach the raw file.
	for deadline := time.Now().Add(60 * time.Second); ; {
		raws, _ := filepath.Glob(filepath.Join(out, "*", "raw", "*.bin"))
		if len(raws) == 1 {
			if fi, err := os.Stat(raws[0]); err == nil && fi.Size() > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no measured results after 60 s:\n%s", console.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, pid := range pids {
		if !brokerProcess(pid, cmd.Process.Pid) {
			t.Fatalf("broker process %d is not running before the %s:\n%s", pid, sig, console.String())
		}
	}

	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	stopped = true
	cmd.Wait()
	folders, _ := filepath.Glob(filepath.Join(os.TempDir(), "crudbench-amqp-"+strconv.Itoa(cmd.Process.Pid)+"-*"))
	if sig == syscall.SIGINT && len(folders) > 0 {
		t.Errorf("the interrupted runner left its node's folder %v", folders)
	}

	// Killed, the kernel delivers the parent-death signal as the runner
	// exits, and the VM's helpers go when the VM does; interrupted, the
	// runner waited for them. Wait for that, however loaded the machine.
	deadline := time.Now().Add(60 * time.Second)
	for {
		var left []int
		for _, pid := range pids {
			if brokerProcess(pid, cmd.Process.Pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("broker processes %v outlived the runner stopped by %s by 60 s", left, sig)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// brokerProcess reports whether pid is alive and a process of the node
// the runner with pid runner started: the node's HOME, its folder, is
// named after that runner (a pid taken over by another program is not).
func brokerProcess(pid, runner int) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	home := "HOME=" + filepath.Join(os.TempDir(), "crudbench-amqp-"+strconv.Itoa(runner)+"-")
	for _, kv := range strings.Split(string(env), "\x00") {
		if strings.HasPrefix(kv, home) {
			return true
		}
	}
	return false
}

// TestAMQPAttached measures an amqp app that already runs, attached by
// its broker's URL: validation and load reach it through that broker, the
// queue's depth is read there, the broker's CPU is not the runner's to
// sample, and the broker's password appears nowhere on the console.
func TestAMQPAttached(t *testing.T) {
	requireBroker(t)
	node, err := broker.Start(context.Background(), broker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Stop() })
	row, _ := stack.FindBuiltin("amqp")
	dbURL, bin := startDatabase(t), buildApps(t, []stack.App{row})
	p, err := stack.StartApp(context.Background(), row, filepath.Join(bin, row.Name), stack.AppConfig{
		DatabaseURL: dbURL, DBMaxConns: 10, AuthSecret: e2eSecret, AMQPURL: node.URL(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop() })

	run, _, console := runBench(t, []string{"DATABASE_URL=" + dbURL, "SEED_EDITOR_PASSWORD=editor", "SEED_VIEWER_PASSWORD=viewer"},
		"-attach", "amqp="+node.URL(), "-pid", "amqp="+strconv.Itoa(p.PID),
		"-scenarios", "read-one,write,control", "-rate", "read-one=10,write=10,control=10",
		"-warmup", "1s", "-duration", "2s", "-cooldown", "0s", "-prime", "0s")
	u, _ := url.Parse(node.URL())
	if pw, _ := u.User.Password(); strings.Contains(console, pw) {
		t.Error("the console shows the broker's password")
	}
	for _, v := range run.Validations {
		if !v.OK {
			t.Errorf("validation of %s on %s failed: %s", v.Scenario, v.App, v.Problem)
		}
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3", len(run.Results))
	}
	for _, r := range run.Results {
		if !r.Measured() || r.Requests != 2*e2eRate || r.SuccessRatio != 1 || !r.AppCost.Available {
			t.Errorf("%s: verdict %s, requests %d, success %v, app cost %+v", r.Scenario, r.Verdict, r.Requests, r.SuccessRatio, r.AppCost)
		}
		if b := r.Broker; b == nil || b.CPUAvailable || !b.QueueAvailable {
			t.Errorf("%s: broker cost %+v, want the queue's depth and no CPU", r.Scenario, b)
		}
	}
}
