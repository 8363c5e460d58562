package capacity_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a CPU-bound server: the tests
// re-execute themselves to get an app whose limit is its one core.
const helperEnv = "CAPACITY_TEST_HELPER"

// burnPerRequest is the CPU time the helper spends on each request: on
// one core it serves at most 100 req/s, less on a machine busy with other
// work, and CPU is all that limits it.
const burnPerRequest = 10 * time.Millisecond

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelper())
	}
	os.Exit(m.Run())
}

// runHelper serves HTTP on a loopback port, says "ready <url>" on stdout,
// and exits when stdin closes (the test went away).
func runHelper() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	srv := &http.Server{Handler: burner(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	fmt.Println("ready http://" + ln.Addr().String())
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // never outlive a broken test for long
	}
	srv.Close()
	return 0
}

// burner answers each request after spending burnPerRequest of the
// process's CPU time on it. Requests take turns, so each one's burn is its
// own: with GOMAXPROCS=1 they could not run side by side anyway.
func burner() http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		start := ownCPU()
		for ownCPU()-start < burnPerRequest {
		}
		mu.Unlock()
		io.WriteString(w, "burned")
	})
}

// ownCPU is this process's CPU time, user plus system, all threads.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startHelper runs the CPU-bound server on one core (GOMAXPROCS=1) and
// returns its URL and pid. It is stopped when the test ends.
func startHelper(t *testing.T) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "GOMAXPROCS=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start helper: %v", err)
	}
	t.Cleanup(func() { stopHelper(t, cmd, stdin) })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if err != nil || !ok {
		t.Fatalf("helper %d said %q (%v), want ready and its URL", cmd.Process.Pid, line, err)
	}
	return url, cmd.Process.Pid
}

// stopHelper closes the helper's stdin, which makes it exit, and reaps it.
func stopHelper(t *testing.T, cmd *exec.Cmd, stdin io.Closer) {
	t.Helper()
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("helper %d: %v", cmd.Process.Pid, err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Errorf("helper %d did not exit when its stdin closed", cmd.Process.Pid)
	}
}
