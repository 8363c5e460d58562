package sampler_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// helperEnv makes the test binary act as a helper process: the tests
// re-execute themselves to get processes with a known CPU and memory use.
const helperEnv = "SAMPLER_TEST_HELPER"

// Helper modes.
const (
	modeIdle     = "idle"      // wait for stdin to close
	modeHalfCore = "half-core" // hold burnMiB of touched memory and use half a core until stdin closes
	modeTree     = "tree"      // on "go" from stdin, run two burning children, then wait
	modeBurnExit = "burn-exit" // use childBurn of CPU time and exit
	modeBurnStay = "burn-stay" // use childBurn of CPU time, then wait for stdin to close
	modeOnCue    = "on-cue"    // on "burn" from stdin, use fewBurn of CPU time; on "burn" and "cpu", say the CPU time used so far
	modeMetrics  = "metrics"   // as half-core, and serve Prometheus's process collector on a loopback port it prints after "ready"
)

const (
	burnMiB   = 200
	childBurn = 400 * time.Millisecond
	fewBurn   = 5 * time.Millisecond
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	os.Exit(m.Run())
}

// runHelper is the helper process's main. It says "ready" on stdout once
// in its measured state and exits when stdin closes (the test went away).
func runHelper(mode string) int {
	stdinClosed := make(chan struct{})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(stdinClosed)
	}()
	wait := func() {
		select {
		case <-stdinClosed:
		case <-time.After(30 * time.Second): // never outlive a broken test for long
		}
	}

	switch mode {
	case modeIdle:
		fmt.Println("ready")
		wait()
	case modeHalfCore, modeMetrics:
		// Mapped directly rather than made, so the resident size is the
		// same with and without the race detector's shadow of the heap.
		mem, err := syscall.Mmap(-1, 0, burnMiB<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper: mmap:", err)
			return 1
		}
		for i := 0; i < len(mem); i += os.Getpagesize() {
			mem[i] = 1
		}
		fmt.Println("ready")
		if mode == modeMetrics {
			addr, err := serveMetrics()
			if err != nil {
				fmt.Fprintln(os.Stderr, "helper:", err)
				return 1
			}
			fmt.Println(addr)
		}
		// "cpu" asks for the CPU time used so far: the ground truth the
		// test compares the sampler with (on a busy machine the helper may
		// get less than the half core it asks for).
		go func() {
			for range lines {
				fmt.Println(int64(processCPU()))
			}
		}()
		burnShare(0.5, stdinClosed)
	case modeOnCue:
		fmt.Println("ready")
		for {
			select {
			case line := <-lines:
				if line == "burn" {
					start := processCPU()
					for processCPU()-start < fewBurn {
					}
				}
				fmt.Println(int64(processCPU()))
			case <-stdinClosed:
				return 0
			}
		}
	case modeTree:
		fmt.Println("ready")
		select {
		case <-lines:
		case <-stdinClosed:
			return 0
		}
		if err := runChildren(); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			return 1
		}
		fmt.Println("done")
		wait()
	case modeBurnExit, modeBurnStay:
		start := processCPU()
		for processCPU()-start < childBurn {
		}
		fmt.Println("burned")
		if mode == modeBurnStay {
			wait()
		}
	default:
		fmt.Fprintln(os.Stderr, "helper: unknown mode", mode)
		return 2
	}
	return 0
}

// serveMetrics serves client_golang's process and Go collectors, as the
// apps do, at /metrics on a loopback port, and returns the address.
func serveMetrics() (string, error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	go http.Serve(ln, mux)
	return ln.Addr().String(), nil
}

// burnShare spins and sleeps so that the process's CPU time (all threads,
// as /proc counts it) stays at share of the wall time since the start,
// catching up when the machine was busy, until stop closes.
func burnShare(share float64, stop <-chan struct{}) {
	start, cpu0 := time.Now(), processCPU()
	for {
		select {
		case <-stop:
			return
		default:
		}
		if float64(processCPU()-cpu0) < share*float64(time.Since(start)) {
			continue // spinning: the getrusage calls are the work
		}
		time.Sleep(time.Millisecond)
	}
}

// runChildren starts one child that burns and exits (its time ends up in
// our cutime) and one that burns and stays (a live member of the tree),
// and returns once both have burned and the first is reaped.
func runChildren() error {
	exiting := exec.Command(os.Args[0])
	exiting.Env = append(os.Environ(), helperEnv+"="+modeBurnExit)
	staying := exec.Command(os.Args[0])
	staying.Env = append(os.Environ(), helperEnv+"="+modeBurnStay)
	// The staying child's stdin is ours, so it exits with us.
	staying.Stdin = os.Stdin
	out, err := staying.StdoutPipe()
	if err != nil {
		return err
	}
	if err := exiting.Start(); err != nil {
		return err
	}
	if err := staying.Start(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	var exitErr error
	wg.Go(func() { exitErr = exiting.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	wg.Wait()
	if err != nil {
		return fmt.Errorf("staying child: %q, %v", line, err)
	}
	return exitErr
}

// processCPU is this process's CPU time, user plus system, all threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// helper is a running helper process.
type helper struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	exited bool
}

// startHelper runs the test binary as a helper in mode and waits for its
// "ready". The helper is stopped when the test ends.
func startHelper(t testing.TB, mode string) *helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
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
		t.Fatalf("start helper %s: %v", mode, err)
	}
	h := &helper{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(func() { h.stop(t) })
	h.expect(t, "ready")
	return h
}

// cpu asks a half-core or on-cue helper for its own CPU time so far.
func (h *helper) cpu(t *testing.T) time.Duration {
	t.Helper()
	return h.ask(t, "cpu")
}

// ask sends the helper a line and reads the CPU time it answers with.
func (h *helper) ask(t *testing.T, line string) time.Duration {
	t.Helper()
	h.send(t, line)
	line, err := h.out.ReadString('\n')
	if err != nil {
		t.Fatalf("helper %d: %v", h.pid(), err)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
	if err != nil {
		t.Fatalf("helper %d said %q, want its CPU time", h.pid(), line)
	}
	return time.Duration(ns)
}

// line reads the helper's next line of output.
func (h *helper) line(t testing.TB) string {
	t.Helper()
	line, err := h.out.ReadString('\n')
	if err != nil {
		t.Fatalf("helper %d: %v", h.pid(), err)
	}
	return strings.TrimSpace(line)
}

// pid is the helper's process id.
func (h *helper) pid() int { return h.cmd.Process.Pid }

// send writes one line to the helper's stdin.
func (h *helper) send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(h.stdin, line+"\n"); err != nil {
		t.Fatalf("write to helper: %v", err)
	}
}

// expect waits for the helper to print want.
func (h *helper) expect(t testing.TB, want string) {
	t.Helper()
	line, err := h.out.ReadString('\n')
	if got := line; err != nil || got != want+"\n" {
		t.Fatalf("helper %d said %q (%v), want %q", h.pid(), got, err, want)
	}
}

// stop closes the helper's stdin, which makes it exit, and reaps it.
func (h *helper) stop(t testing.TB) {
	t.Helper()
	if h.exited {
		return
	}
	h.exited = true
	h.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("helper %d: %v", h.pid(), err)
		}
	case <-time.After(5 * time.Second):
		h.cmd.Process.Kill()
		<-done
		t.Errorf("helper %d did not exit when its stdin closed", h.pid())
	}
}
