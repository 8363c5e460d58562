package broker_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/bench/broker"
)

// helperEnv switches a re-executed test binary into the crash helper: it
// starts a node, prints its folder and PIDs, and waits to be killed.
const helperEnv = "BROKER_TEST_CRASH_HELPER"

func TestMain(m *testing.M) {
	if root := os.Getenv(helperEnv); root != "" {
		crashHelper(root)
		return
	}
	os.Exit(m.Run())
}

func crashHelper(root string) {
	b, err := broker.Start(context.Background(), broker.Options{Root: root})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fields := []string{b.Dir()}
	for _, pid := range b.PIDs() {
		fields = append(fields, strconv.Itoa(pid))
	}
	fmt.Println(strings.Join(fields, " "))
	// The parent kills us long before this; the limit only bounds a helper
	// whose parent went away.
	time.Sleep(2 * time.Minute)
	_ = b.Stop()
	os.Exit(0)
}

func TestStartStop(t *testing.T) {
	b := start(t, t.TempDir())
	pids, dir := b.PIDs(), b.Dir()
	if got := readComm(b.PID()); got != "beam.smp" {
		t.Errorf("PID() = %d runs %q, want beam.smp", b.PID(), got)
	}
	if comms := commsOf(pids); !strings.Contains(comms, "epmd") || !strings.Contains(comms, "erl_child_setup") {
		t.Errorf("PIDs() = %v run %s, want beam.smp, erl_child_setup and epmd among them", pids, comms)
	}
	if !strings.HasPrefix(b.URL(), "amqp://"+broker.User+":") || !strings.HasSuffix(b.URL(), "@127.0.0.1:"+portOf(t, b.URL())+"/"+broker.VHost) {
		t.Errorf("URL() = %s, want the node's user and vhost on loopback", b.URL())
	}
	t.Run("round trip", func(t *testing.T) { roundTrip(t, b.URL()) })
	t.Run("the node is the VM's tree and epmd", func(t *testing.T) {
		// A process of the node (its HOME) outside them would be one
		// that daemonized, which nothing stops; a helper that is on its
		// way out is given a moment.
		tree := append(treeOf(b.PID()), b.PID())
		for _, pid := range b.PIDs() {
			if readComm(pid) == "epmd" {
				tree = append(tree, pid)
			}
		}
		for _, pid := range processesIn(dir) {
			if slices.Contains(tree, pid) {
				continue
			}
			for deadline := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				t.Errorf("process %d (%s) of the node is neither the VM's nor its tree's nor epmd", pid, readComm(pid))
			}
		}
	})

	if err := b.Stop(); err != nil {
		t.Fatal(err)
	}
	if left := living(pids); len(left) > 0 {
		t.Errorf("Stop left %v (%s) running", left, commsOf(left))
	}
	if left := processesIn(dir); len(left) > 0 {
		t.Errorf("Stop left processes of the node: %v (%s)", left, commsOf(left))
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stop left the folder %s (stat: %v)", dir, err)
	}
	if err := b.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestRestart(t *testing.T) {
	b := start(t, t.TempDir())
	ctx := context.Background()
	conn := dial(t, b.URL())
	closed := conn.NotifyClose(make(chan *amqp.Error, 1))
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ch.QueueDeclare("kept", true, false, false, false, nil); err != nil {
		t.Fatal(err)
	}
	before := b.PID()
	if err := b.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("a connection outlived the restart of its node")
	}
	if alive(before) {
		t.Errorf("the VM before the restart, %d, still runs", before)
	}
	conn = dial(t, b.URL())
	ch, err = conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ch.QueueDeclarePassive("kept", true, false, false, false, nil); err != nil {
		t.Errorf("the durable queue did not survive the restart: %v", err)
	}
}

// TestCrashedParent kills a process that runs a node, as a crash or
// kill -9 of the runner would, and checks that every process of the node
// dies with it, and that the next Start removes the folder left behind.
func TestCrashedParent(t *testing.T) {
	root := t.TempDir()
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), helperEnv+"="+root)
	helper.Stderr = os.Stderr
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = helper.Process.Kill(); _ = helper.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the helper's node (folder and PIDs): %v", err)
	}
	fields := strings.Fields(line)
	if len(fields) < 3 {
		t.Fatalf("helper printed %q, want a folder and at least two PIDs", line)
	}
	dir := fields[0]
	var pids []int
	for _, f := range fields[1:] {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("helper printed %q: %v", line, err)
		}
		pids = append(pids, pid)
	}
	if left := living(pids); len(left) != len(pids) {
		t.Fatalf("only %v of the node's %v run before the crash", left, pids)
	}

	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	waitFor(t, 30*time.Second, func() bool { return len(living(pids)) == 0 && len(processesIn(dir)) == 0 },
		"the node's processes %v to die with their parent", pids)

	b := start(t, root)
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Start left the stale folder %s (stat: %v)", dir, err)
	}
	if err := b.Stop(); err != nil {
		t.Error(err)
	}
}

func TestMissingServer(t *testing.T) {
	t.Setenv("RABBITMQ_SERVER", filepath.Join(t.TempDir(), "rabbitmq-server"))
	b, err := broker.Start(context.Background(), broker.Options{Root: t.TempDir()})
	if err == nil {
		_ = b.Stop()
		t.Fatal("Start succeeded without a rabbitmq-server")
	}
	for _, want := range []string{"RABBITMQ_SERVER", "apt-get install rabbitmq-server", "AMQP_URL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start's error %q does not say %q", err, want)
		}
	}
}

// start starts a node under root, stopped when the test ends.
func start(t *testing.T, root string) *broker.Broker {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b, err := broker.Start(ctx, broker.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Stop() })
	return b
}

func dial(t *testing.T, url string) *amqp.Connection {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// roundTrip publishes a message to a queue of its own and reads it back.
func roundTrip(t *testing.T, url string) {
	t.Helper()
	ch, err := dial(t, url).Channel()
	if err != nil {
		t.Fatal(err)
	}
	q, err := ch.QueueDeclare("", false, true, true, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := ch.Consume(q.Name, "", true, true, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ch.PublishWithContext(ctx, "", q.Name, true, false, amqp.Publishing{Body: []byte("hello")}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-msgs:
		if string(m.Body) != "hello" {
			t.Errorf("got %q, want hello", m.Body)
		}
	case <-ctx.Done():
		t.Fatal("the message did not come back")
	}
}

func portOf(t *testing.T, url string) string {
	t.Helper()
	i := strings.LastIndexByte(url, ':')
	port, _, _ := strings.Cut(url[i+1:], "/")
	return port
}

// processesIn lists the living processes whose environment has HOME set
// to dir: every process of a node (the VM, its helpers, epmd, any epmd or
// erl the node started itself) has the node folder as its HOME.
func processesIn(dir string) []int {
	want := []byte("HOME=" + dir)
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !alive(pid) {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

func waitFor(t *testing.T, limit time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for "+format, append([]any{limit}, args...)...)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether pid runs; a zombie counts as dead.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] != 'Z' && stat[i+2] != 'X'
}

func living(pids []int) []int {
	var out []int
	for _, pid := range pids {
		if alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

func readComm(pid int) string {
	comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(comm))
}

func commsOf(pids []int) string {
	var names []string
	for _, pid := range pids {
		names = append(names, readComm(pid))
	}
	return strings.Join(names, ",")
}

// TestCPUs starts a node on CPU 0 alone: the VM and epmd run there.
func TestCPUs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b, err := broker.Start(ctx, broker.Options{Root: t.TempDir(), CPUs: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Stop() })
	for _, pid := range b.PIDs() {
		status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue // a helper that came and went
		}
		for line := range strings.Lines(string(status)) {
			if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok && strings.TrimSpace(v) != "0" {
				t.Errorf("process %d (%s) may run on CPUs %s, want 0", pid, readComm(pid), strings.TrimSpace(v))
			}
		}
	}
	if own, err := os.ReadFile("/proc/self/status"); err == nil && strings.Contains(string(own), "Cpus_allowed_list:\t0\n") {
		t.Error("the caller was left on CPU 0")
	}
}

func TestUse(t *testing.T) {
	t.Setenv("BROKER_TEST_URL", "amqp://someone:secret@broker.example:5672/vhost")
	url, node, err := broker.Use(context.Background(), "BROKER_TEST_URL", broker.Options{})
	if err != nil || node != nil || url != "amqp://someone:secret@broker.example:5672/vhost" {
		t.Errorf("Use with the variable set = %q, %v, %v; want its URL and no node", url, node, err)
	}
}

// TestStartReportsServerErrors runs a rabbitmq-server that fails at once:
// Start says so, quotes its output and names the node's log file.
func TestStartReportsServerErrors(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "rabbitmq-server")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'no Erlang here' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rabbitmq-env"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RABBITMQ_SERVER", script)
	root := t.TempDir()
	b, err := broker.Start(context.Background(), broker.Options{Root: root})
	if err == nil {
		_ = b.Stop()
		t.Fatal("Start succeeded with a server that exits at once")
	}
	for _, want := range []string{"exited during start-up", "no Erlang here", "node log: " + root} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start's error does not say %q:\n%v", want, err)
		}
	}
}

// treeOf lists the living descendants of pid.
func treeOf(pid int) []int {
	parents := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || !alive(child) {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			parents[child] = ppid
		}
	}
	var out []int
	for frontier := []int{pid}; len(frontier) > 0; {
		var next []int
		for child, parent := range parents {
			if slices.Contains(frontier, parent) {
				next = append(next, child)
			}
		}
		out = append(out, next...)
		frontier = next
	}
	return out
}
