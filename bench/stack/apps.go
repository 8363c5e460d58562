// Package stack brings up what a benchmark measures and tears it down
// again: a throwaway PostgreSQL cluster with the dataset, and the built-in
// apps (the table in builtin.go) built from source and started as
// processes of their own — or, in attach mode, reads which running apps to
// reach and finds their processes.
package stack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"crudbench/bench/cpuset"
	"crudbench/bench/grpcwire"
	"crudbench/bench/scenario"
	"crudbench/db/pgtemp"
)

const (
	// readyTimeout bounds an app's start until /readyz answers.
	readyTimeout = 30 * time.Second
	// readyPoll is how often /readyz is asked during a start: Ready is
	// precise to about this much, and a refused connection on loopback
	// costs next to nothing.
	readyPoll = 5 * time.Millisecond
	// stopTimeout bounds a graceful shutdown before the app is killed.
	stopTimeout = 10 * time.Second
)

// ModuleRoot returns the folder of the go.mod the working directory
// belongs to: the apps are built from there.
func ModuleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("find the crudbench module (is Go installed?): %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the crudbench module: run the bench from the repository (go run ./bench)")
	}
	return filepath.Dir(gomod), nil
}

// AppConfig is the environment every app is started with: the same for
// all of them, so that none is favoured.
type AppConfig struct {
	DatabaseURL string
	DBMaxConns  int
	AuthSecret  string
	// Log receives the app's stdout and stderr.
	Log io.Writer
	// CPUs, when set, are the only CPUs the app may run on: it starts
	// with that affinity, so Go sizes its GOMAXPROCS to them from the
	// start. Empty leaves it the runner's.
	CPUs cpuset.Set
	// AMQPURL is the broker an app of kind amqp consumes its requests
	// from (AMQP_URL); the other kinds ignore it.
	AMQPURL string
	// APIURL is, for a front end (App.Fronts), where the API it fronts
	// listens (API_URL); the apps ignore it.
	APIURL string
}

// Process is an app the bench started.
type Process struct {
	Name string
	// URL is where it listens, e.g. http://127.0.0.1:40123.
	URL string
	PID int
	// DebugURL is its admin address (DEBUG_ADDR) on loopback, e.g.
	// http://127.0.0.1:40124: a Go app serves net/http/pprof and its
	// metrics there, a Node app V8's CPU profile (/debug/v8/profile).
	DebugURL string
	// MetricsURL is where its Prometheus metrics are: DebugURL's /metrics
	// for a Go app, its METRICS_ADDR's (loopback too) for a Node app.
	MetricsURL string
	// Ready is the time from starting the process to its first successful
	// /readyz, and IdleRSSBytes its VmRSS at that moment, before any load:
	// for an app that runs as a tree (App.Tree), the sum of its
	// processes' Pss.
	Ready        time.Duration
	IdleRSSBytes uint64
	// Workers is, for an app that runs as a tree, how many processes its
	// primary had forked when it was ready.
	Workers int

	cmd      *exec.Cmd
	started  time.Time
	done     chan struct{}
	waitErr  error
	stopOnce sync.Once
	stopErr  error
	// output keeps the end of what the app wrote, for the error of an app
	// that exits before it is ready.
	output *pgtemp.LogTail
	// grpc says it speaks gRPC: its readiness is the health service's.
	grpc bool
	// readyURL is where an HTTP /readyz is asked: URL, but for an amqp
	// app, whose requests go to its queue, its admin port; readyPath is
	// what is asked there: /readyz, or a front end's /healthz.
	readyURL, readyPath string
}

// StartApp starts app from bin, what Build made of it (a Go app's binary,
// a Node app's folder, where node runs its Main), on a free local port,
// with its admin address (DEBUG_ADDR) on another, and a Node app's
// METRICS_ADDR on a third, waits until it is ready (/readyz) and records
// how long that took and its resident memory then. The app's
// RunEnv comes before cfg's variables, so a variant cannot change what
// every app gets.
//
// A port that was free when chosen may be taken by another process before
// the app binds it; an app that exits saying so is started again on other
// ports, up to startTries times.
func StartApp(ctx context.Context, app App, bin string, cfg AppConfig) (*Process, error) {
	for try := 1; ; try++ {
		p, err := startOnce(ctx, app, bin, cfg)
		if !errors.Is(err, errPortTaken) || try == startTries {
			return p, err
		}
	}
}

// startTries is how many times StartApp tries ports that turned out taken.
const startTries = 3

// tailLines is how much of an app's output the error of an app that
// exits before it is ready quotes: its last log lines.
const tailLines = 20

// errPortTaken marks an app that exited because its port was taken.
var errPortTaken = errors.New("its port was taken")

// startOnce is one try of StartApp.
func startOnce(ctx context.Context, app App, bin string, cfg AppConfig) (*Process, error) {
	if app.Fronts != "" && cfg.APIURL == "" {
		return nil, fmt.Errorf("start %s: a front end needs the URL of %s, the API it fronts", app.Name, app.Fronts)
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	adminAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	metricsAddr := ""
	if app.Toolchain == ToolchainNode && app.Fronts == "" {
		if metricsAddr, err = freeAddr(); err != nil {
			return nil, err
		}
	}
	out := cfg.Log
	if out == nil {
		out = io.Discard
	}
	last := pgtemp.NewLogTail(out, tailLines)
	cmd := command(app, bin, addr, adminAddr, metricsAddr, cfg)
	cmd.Stdout, cmd.Stderr = last, last
	p := &Process{Name: app.Name, URL: "http://" + addr, DebugURL: "http://" + adminAddr, cmd: cmd, done: make(chan struct{}), output: last, grpc: app.Kind == scenario.KindGRPC}
	p.readyURL, p.readyPath = p.URL, "/readyz"
	switch app.Kind {
	case scenario.KindGRPC:
		p.URL = grpcwire.Scheme + "://" + addr
	case scenario.KindAMQP:
		// ADDR is its admin port (/healthz, /readyz); its requests go to
		// the queue on the broker.
		p.URL = scenario.AMQPBaseURL(scenario.AMQPQueue)
	}
	p.MetricsURL = p.DebugURL + "/metrics"
	if metricsAddr != "" {
		p.MetricsURL = "http://" + metricsAddr + "/metrics"
	}
	if app.Fronts != "" {
		// The static server has no admin address and no metrics; it has
		// read its build into memory before it listens, so answering
		// /healthz is being ready.
		p.DebugURL, p.MetricsURL, p.readyPath = "", "", "/healthz"
	}
	if err := p.start(cfg.CPUs); err != nil {
		return nil, fmt.Errorf("start %s: %w", app.Name, err)
	}
	if err := p.waitReady(ctx); err != nil {
		p.Stop()
		return nil, fmt.Errorf("start %s: %w", app.Name, err)
	}
	if err := p.measureIdle(app.Tree); err != nil {
		p.Stop()
		return nil, fmt.Errorf("start %s: idle memory: %w", app.Name, err)
	}
	return p, nil
}

// command is the app's process as started on addr, its admin server on
// adminAddr: a Go app's binary bin, or node running a Node app's Main in
// its folder bin. A Go app serves pprof and its metrics on DEBUG_ADDR; a
// Node app serves V8's CPU profile on DEBUG_ADDR and its metrics on
// METRICS_ADDR, metricsAddr (a cluster's primary adds up its workers'
// metrics, while one worker is profiled).
func command(app App, bin, addr, adminAddr, metricsAddr string, cfg AppConfig) *exec.Cmd {
	cmd := exec.Command(bin)
	env := []string{"DEBUG_ADDR=" + adminAddr}
	if app.Toolchain == ToolchainNode {
		cmd = exec.Command("node", app.Main)
		cmd.Dir = bin
		env = append(env, "METRICS_ADDR="+metricsAddr)
	}
	cmd.Env = append(append(append(inherited(), app.RunEnv...), env...),
		"DATABASE_URL="+cfg.DatabaseURL,
		"ADDR="+addr,
		"DB_MAX_CONNS="+strconv.Itoa(cfg.DBMaxConns),
		"AUTH_SECRET="+cfg.AuthSecret,
		"LOG_LEVEL=info", // request logging (debug) would dominate the measurement
	)
	if app.Fronts != "" {
		cmd.Env = append(cmd.Env, "API_URL="+cfg.APIURL)
	}
	if app.Kind == scenario.KindAMQP {
		cmd.Env = append(cmd.Env, "AMQP_URL="+cfg.AMQPURL, "AMQP_QUEUE="+scenario.AMQPQueue)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		// Its own process group: a Ctrl-C in the terminal reaches the
		// runner only, which then stops the apps in order.
		Setpgid: true,
		// No orphaned app if the runner dies.
		Pdeathsig: syscall.SIGKILL,
	}
	return cmd
}

// start starts the process on cpus (empty: the runner's) and reaps it in
// the background. The parent-death signal fires when the forking thread
// exits, not the process, so that thread is kept for as long as the app
// runs; the child inherits that thread's affinity, so the thread takes
// cpus for the fork.
func (p *Process) start(cpus cpuset.Set) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		p.started = time.Now()
		var err error
		restored := true
		if len(cpus) == 0 {
			err = p.cmd.Start()
		} else {
			restored, err = cpuset.OnThread(cpus, p.cmd.Start)
		}
		if restored {
			defer runtime.UnlockOSThread()
		}
		if err != nil {
			started <- err
			close(p.done)
			return
		}
		p.PID = p.cmd.Process.Pid
		started <- nil
		p.waitErr = p.cmd.Wait()
		close(p.done)
	}()
	return <-started
}

// waitReady asks /readyz every readyPoll until it answers 200 (a grpc
// app: the health service's Check until it answers SERVING) and sets
// p.Ready to the time from the start of the process to that answer. A
// ready app is live too, so /healthz needs no round of its own.
func (p *Process) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	ready := p.readyz()
	if p.grpc {
		h, err := newHealth(p.URL)
		if err != nil {
			return err
		}
		defer h.Close()
		ready = h.Serving
	}
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		if ready(ctx) {
			p.Ready = time.Since(p.started)
			return nil
		}
		select {
		case <-p.done:
			last := p.output.String()
			if strings.Contains(last, "address already in use") {
				return fmt.Errorf("exited before it was ready: %v: %w; its last output:\n%s", p.waitErr, errPortTaken, last)
			}
			return fmt.Errorf("exited before it was ready: %v; its last output:\n%s", p.waitErr, last)
		case <-ctx.Done():
			if p.grpc {
				return fmt.Errorf("the health service did not answer SERVING within %s", readyTimeout)
			}
			return fmt.Errorf("%s did not answer 200 within %s", p.readyPath, readyTimeout)
		case <-tick.C:
		}
	}
}

// readyz returns the check that an HTTP app's /readyz answers 200.
func (p *Process) readyz() func(ctx context.Context) bool {
	client := &http.Client{Timeout: time.Second}
	return func(ctx context.Context) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.readyURL+p.readyPath, nil)
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
}

// Stop shuts the app down gracefully (SIGTERM), kills it after
// stopTimeout, and waits for it to exit. Calling it again returns the first
// call's result.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() {
		select {
		case <-p.done:
			return
		default:
		}
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
			var exit *exec.ExitError
			if p.waitErr != nil && !errors.As(p.waitErr, &exit) {
				p.stopErr = p.waitErr
			} else if exit != nil && exit.ExitCode() != 0 {
				p.stopErr = fmt.Errorf("%s exited with %v after SIGTERM", p.Name, p.waitErr)
			}
		case <-time.After(stopTimeout):
			_ = p.cmd.Process.Kill()
			<-p.done
			p.stopErr = fmt.Errorf("%s did not stop within %s of SIGTERM and was killed", p.Name, stopTimeout)
		}
	})
	return p.stopErr
}

// freeAddr returns a loopback address with a port free at the moment.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// notInherited are the variables of the runner's environment that would
// change how an app runs (the Go runtime's and Node's knobs, the number of
// express-cluster's workers) or what it is configured with beyond the
// common settings: a shell's GOMAXPROCS or REQUEST_TIMEOUT must not reach
// the apps, whose rows and common settings alone say how they run; a
// shell's METRICS_ADDR would have every Go app bind one port.
var notInherited = []string{"GOGC", "GOMAXPROCS", "GOMEMLIMIT", "GODEBUG", "NODE_OPTIONS", "WORKERS", "REQUEST_TIMEOUT", "TOKEN_TTL", "HTMX_RENDERER", "METRICS_ADDR", "AMQP_PREFETCH"}

// inherited is the runner's environment without notInherited.
func inherited() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(notInherited, name) {
			env = append(env, kv)
		}
	}
	return env
}
