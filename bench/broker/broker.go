// Package broker starts a private, throwaway RabbitMQ node from the local
// rabbitmq-server installation, as package pgtemp starts a throwaway
// PostgreSQL: the runner uses it for the amqp app when no AMQP_URL is
// given, and the amqp app's tests use it when no TEST_AMQP_URL is.
//
// A node lives in its own temporary folder (data, logs, configuration,
// Erlang cookie), has its own node name, listens on loopback ports picked
// at start (AMQP, Erlang distribution, and an epmd of its own, so that it
// never meets a system epmd or another node), loads no plugins, and has a
// user and vhost of its own, created from its configuration on first boot.
// Its two processes, epmd and the Erlang VM (beam.smp, with its helper
// children erl_child_setup and inet_gethost), are children of the caller
// that die with it (Pdeathsig), and folders left behind by a crashed
// caller are removed by the next Start.
//
// The package is Linux-only: it relies on Pdeathsig and /proc.
package broker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/db/pgtemp"
	"crudbench/internal/affinity"
)

const (
	// dirPrefix starts every node folder's name; the creator's PID follows,
	// so that a later Start can tell which folders are orphaned.
	dirPrefix = "crudbench-amqp-"
	// User and VHost are the node's own account, created on first boot.
	User  = "crudbench"
	VHost = "crudbench"
	// readyTimeout bounds the wait for the first AMQP connection: an Erlang
	// VM and RabbitMQ's boot take a few seconds on an idle machine and many
	// more on a busy one.
	readyTimeout = 90 * time.Second
	// stopTimeout bounds the graceful stop (SIGTERM: the VM's init:stop)
	// before the node is killed.
	stopTimeout = 20 * time.Second
	// logTailLines is how much node output start-up errors quote.
	logTailLines = 40
)

// Options tune a node; the zero value is fine.
type Options struct {
	// Log receives the VM's and epmd's stdout and stderr; nil discards
	// them. RabbitMQ's own log is the file LogFile names.
	Log io.Writer
	// Root is the folder the node's folder is made in, and where Start
	// looks for stale ones first. Empty means the system's temporary
	// folder. A test that leaves an orphan on purpose gives it a root of
	// its own.
	Root string
	// CPUs, when set, are the only CPUs the node may run on: the VM and
	// epmd start with that affinity and every process they start inherits
	// it (the runner's -cpus puts the broker on the non-app side). Empty
	// leaves them the caller's.
	CPUs []int
}

// Broker is a running throwaway RabbitMQ node. Call Stop when done.
type Broker struct {
	dir      string
	server   string // the rabbitmq-server script
	epmdBin  string
	password string
	amqpPort int
	distPort int
	epmdPort int
	out      *pgtemp.LogTail
	cpus     []int

	mu   sync.Mutex
	node *child // the Erlang VM; nil while stopped
	epmd *child
	// keep is set when the start failed: the folder stays for its log.
	keep bool

	stopOnce sync.Once
	stopErr  error
}

// child is a process started with a parent-death signal, reaped in the
// background.
type child struct {
	proc    *os.Process
	done    chan struct{} // closed once it exited and err is set
	waitErr error
}

// Start makes a node folder, starts epmd and the node on free loopback
// ports, and waits until the node accepts an AMQP connection as its own
// user. ctx bounds the start-up only; the node runs until Stop.
func Start(ctx context.Context, opts Options) (*Broker, error) {
	server, epmdBin, err := FindServer()
	if err != nil {
		return nil, err
	}
	root := opts.Root
	if root == "" {
		root = os.TempDir()
	}
	removeStale(root)
	dir, err := os.MkdirTemp(root, dirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("broker: create node folder: %w", err)
	}
	b := &Broker{dir: dir, server: server, epmdBin: epmdBin, out: pgtemp.NewLogTail(opts.Log, logTailLines), cpus: opts.CPUs}
	if err := b.configure(); err != nil {
		_ = b.Stop()
		return nil, err
	}
	if err := b.start(ctx); err != nil {
		_ = b.Stop()
		return nil, err
	}
	return b, nil
}

// Use is the broker a run or a test binary talks to: the URL in the
// environment variable env (AMQP_URL for the runner, TEST_AMQP_URL for
// tests) when it is set, with no node to stop; otherwise a throwaway node
// started with opts, which the caller stops.
func Use(ctx context.Context, env string, opts Options) (url string, node *Broker, err error) {
	if u := os.Getenv(env); u != "" {
		return u, nil, nil
	}
	node, err = Start(ctx, opts)
	if err != nil {
		return "", nil, err
	}
	return node.URL(), node, nil
}

// configure picks the ports and writes the node's files.
func (b *Broker) configure() error {
	ports, err := freePorts(3)
	if err != nil {
		return fmt.Errorf("broker: pick ports: %w", err)
	}
	b.amqpPort, b.distPort, b.epmdPort = ports[0], ports[1], ports[2]
	secret := make([]byte, 16)
	if _, err := rand.Read(secret); err != nil {
		return fmt.Errorf("broker: make a password: %w", err)
	}
	b.password = hex.EncodeToString(secret)
	conf := strings.Join([]string{
		"listeners.tcp.default = 127.0.0.1:" + strconv.Itoa(b.amqpPort),
		"default_vhost = " + VHost,
		"default_user = " + User,
		"default_pass = " + b.password,
		"default_permissions.configure = .*",
		"default_permissions.read = .*",
		"default_permissions.write = .*",
		// A temporary folder on a small disk must not raise the disk alarm,
		// which blocks every publisher.
		"disk_free_limit.absolute = 50MB",
		"log.console = false",
		"log.file.level = info",
		"",
	}, "\n")
	files := map[string]string{
		"rabbitmq.conf":   conf,
		"enabled_plugins": "[].\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(b.dir, name), []byte(content), 0o600); err != nil {
			return fmt.Errorf("broker: write %s: %w", name, err)
		}
	}
	return nil
}

// environ is the node's environment: the caller's, less any RabbitMQ or
// Erlang setting that would point it elsewhere, plus its own.
func (b *Broker) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "RABBITMQ_") || strings.HasPrefix(name, "ERL_") || name == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		// The Erlang cookie goes to $HOME/.erlang.cookie: the node's own.
		"HOME="+b.dir,
		"RABBITMQ_NODENAME="+b.NodeName(),
		"RABBITMQ_USE_LONGNAME=false",
		"RABBITMQ_NODE_IP_ADDRESS=127.0.0.1",
		"RABBITMQ_NODE_PORT="+strconv.Itoa(b.amqpPort),
		"RABBITMQ_DIST_PORT="+strconv.Itoa(b.distPort),
		"ERL_EPMD_ADDRESS=127.0.0.1",
		"ERL_EPMD_PORT="+strconv.Itoa(b.epmdPort),
		"RABBITMQ_CONFIG_FILE="+filepath.Join(b.dir, "rabbitmq.conf"),
		// Neither the system's advanced.config nor its rabbitmq-env.conf:
		// both are named here and do not exist.
		"RABBITMQ_ADVANCED_CONFIG_FILE="+filepath.Join(b.dir, "advanced.config"),
		"RABBITMQ_CONF_ENV_FILE="+filepath.Join(b.dir, "rabbitmq-env.conf"),
		"RABBITMQ_ENABLED_PLUGINS_FILE="+filepath.Join(b.dir, "enabled_plugins"),
		"RABBITMQ_MNESIA_BASE="+filepath.Join(b.dir, "mnesia"),
		"RABBITMQ_LOG_BASE="+filepath.Join(b.dir, "log"),
		"RABBITMQ_LOGS="+b.LogFile(),
		"RABBITMQ_PID_FILE="+filepath.Join(b.dir, "rabbitmq.pid"),
		// The script execs the VM instead of running it as a child of a
		// shell that traps signals: the PID Start gets is beam.smp's, and
		// the parent-death signal set on it survives the execs. -noinput
		// keeps the shell that ALLOW_INPUT would otherwise open; the
		// distribution listens on loopback only.
		"RABBITMQ_ALLOW_INPUT=1",
		"RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-noinput -kernel inet_dist_use_interface {127,0,0,1}",
	)
}

// start starts epmd unless it runs, then the node, and waits for AMQP.
func (b *Broker) start(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.epmd == nil || isDone(b.epmd) {
		// The node would start an epmd of its own on ERL_EPMD_PORT, as a
		// daemon that outlives everything; this one is a child instead.
		epmd := exec.Command(b.epmdBin, "-port", strconv.Itoa(b.epmdPort), "-address", "127.0.0.1")
		b.prepare(epmd)
		c, err := startChild(epmd, b.cpus)
		if err != nil {
			return b.errorf("start epmd (%s): %v", b.epmdBin, err)
		}
		b.epmd = c
		if err := waitListening(ctx, b.epmdPort, c); err != nil {
			return b.errorf("epmd did not listen on 127.0.0.1:%d: %v", b.epmdPort, err)
		}
	}
	node := exec.Command(b.server)
	b.prepare(node)
	// The VM's helpers inherit the output pipe; don't let one that
	// lingers after the VM hold up Wait.
	node.WaitDelay = 2 * time.Second
	c, err := startChild(node, b.cpus)
	if err != nil {
		return b.errorf("start %s: %v", b.server, err)
	}
	b.node = c
	return b.waitReady(ctx, c)
}

// prepare sets what epmd and the node have in common.
func (b *Broker) prepare(cmd *exec.Cmd) {
	cmd.Dir = b.dir // where an erl_crash.dump lands
	cmd.Env = b.environ()
	cmd.Stdout = b.out
	cmd.Stderr = b.out
	cmd.SysProcAttr = &syscall.SysProcAttr{
		// Its own process group: a terminal's Ctrl-C goes to the caller,
		// which then stops the node in order.
		Setpgid: true,
		// No orphaned node if the caller crashes.
		Pdeathsig: syscall.SIGKILL,
	}
}

// startChild starts cmd with affinity.Start, on cpus unless that is
// empty.
func startChild(cmd *exec.Cmd, cpus []int) (*child, error) {
	c := &child{done: make(chan struct{})}
	err := affinity.Start("broker", cmd, cpus, func(err error) {
		c.waitErr = err
		close(c.done)
	})
	if err != nil {
		return nil, err
	}
	c.proc = cmd.Process
	return c, nil
}

func isDone(c *child) bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// waitListening dials port until it answers, c exits or time runs out.
func waitListening(ctx context.Context, port int, c *child) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return conn.Close()
		}
		select {
		case <-c.done:
			return fmt.Errorf("it exited: %v", c.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("%v: last attempt: %v", ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// waitReady connects over AMQP until the node answers, exits, or time runs out.
func (b *Broker) waitReady(ctx context.Context, node *child) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		conn, err := amqp.DialConfig(b.URL(), amqp.Config{Dial: amqp.DefaultDial(2 * time.Second)})
		if err == nil {
			return conn.Close()
		}
		select {
		case <-node.done:
			return b.errorf("rabbitmq-server exited during start-up: %v", node.waitErr)
		case <-ctx.Done():
			return b.errorf("the node did not accept an AMQP connection on 127.0.0.1:%d (%v): last attempt: %v", b.amqpPort, ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// errorf builds a start-up error that names the node's log file and quotes
// the end of the VM's output and of that log, where the reason usually is.
// The folder is kept for the log's sake; the next Start of another process
// removes it.
func (b *Broker) errorf(format string, args ...any) error {
	b.keep = true
	msg := fmt.Sprintf("broker: "+format, args...)
	msg += "\nnode log: " + b.LogFile()
	if tail := lastLines(b.LogFile(), logTailLines); tail != "" {
		msg += " (last lines):\n" + tail
	}
	if out := b.out.String(); out != "" {
		msg += "\nnode output (last lines):\n" + out
	}
	return errors.New(msg)
}

// URL is the AMQP URL of the node's vhost as its user.
func (b *Broker) URL() string {
	u := url.URL{
		Scheme: "amqp",
		User:   url.UserPassword(User, b.password),
		Host:   net.JoinHostPort("127.0.0.1", strconv.Itoa(b.amqpPort)),
		Path:   "/" + VHost,
	}
	return u.String()
}

// NodeName is the node's Erlang name, unique to this Broker.
func (b *Broker) NodeName() string {
	return "crudbench-" + filepath.Base(b.dir)[len(dirPrefix):] + "@localhost"
}

// Dir is the node's temporary folder: data (mnesia), logs, configuration.
func (b *Broker) Dir() string { return b.dir }

// LogFile is RabbitMQ's own log.
func (b *Broker) LogFile() string { return filepath.Join(b.dir, "log", "rabbit.log") }

// PID is the Erlang VM's (beam.smp's) process ID, 0 while stopped.
func (b *Broker) PID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.node == nil || isDone(b.node) {
		return 0
	}
	return b.node.proc.Pid
}

// PIDs are the processes that make up the broker, for sampling its CPU
// and memory: the Erlang VM, its descendants (erl_child_setup,
// inet_gethost), the node's epmd, and any other process with the node's
// HOME (such as a helper the VM started that left its tree). A sampler
// adds the VM's cutime and cstime for helpers that came and went. It
// reads /proc: ask once per sampling window, not per sample.
func (b *Broker) PIDs() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var pids []int
	if b.node != nil && !isDone(b.node) {
		pids = append(pids, b.node.proc.Pid)
		pids = append(pids, descendantsOf(b.node.proc.Pid)...)
	}
	if b.epmd != nil && !isDone(b.epmd) {
		pids = append(pids, b.epmd.proc.Pid)
	}
	for _, pid := range withEnv("HOME="+b.dir, 0) {
		if !slices.Contains(pids, pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Restart stops the node gracefully and starts it again on the same
// folder and ports: the same user, vhost and durable queues, none of the
// connections. It is how tests take the broker away under load.
func (b *Broker) Restart(ctx context.Context) error {
	if err := b.stopNode(); err != nil {
		return err
	}
	return b.start(ctx)
}

// Stop stops the node (SIGTERM, the VM's graceful stop; SIGKILL to it and
// its helpers after 20 s), then its epmd, and removes the folder. Calling
// it again returns the first call's result.
func (b *Broker) Stop() error {
	b.stopOnce.Do(func() {
		errs := []error{b.stopNode()}
		b.mu.Lock()
		if b.epmd != nil {
			killTree(b.epmd)
		}
		b.sweep(0)
		b.mu.Unlock()
		if !b.keep {
			if err := os.RemoveAll(b.dir); err != nil {
				errs = append(errs, fmt.Errorf("broker: remove node folder: %w", err))
			}
		}
		b.stopErr = errors.Join(errs...)
	})
	return b.stopErr
}

// stopNode stops the Erlang VM and waits until it and its helpers are gone.
func (b *Broker) stopNode() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	node := b.node
	if node == nil {
		return nil
	}
	b.node = nil
	helpers := descendantsOf(node.proc.Pid)
	var err error
	if !isDone(node) {
		if e := node.proc.Signal(syscall.SIGTERM); e != nil && !errors.Is(e, os.ErrProcessDone) {
			err = fmt.Errorf("broker: signal the node: %w", e)
		}
		select {
		case <-node.done:
		case <-time.After(stopTimeout):
			killTree(node)
		}
	}
	// Helpers end when the VM's pipes close; a stuck one is killed, and so
	// is any process of the node that had left the VM's tree.
	for _, pid := range helpers {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	keep := 0
	if b.epmd != nil && !isDone(b.epmd) {
		keep = b.epmd.proc.Pid
	}
	b.sweep(keep)
	return err
}

// sweep kills every process of the node but keep, found by the node's
// HOME in its environment (the VM, its helpers, epmd, and an erl or
// inet_gethost that outlived its parent all have it), and waits up to
// 5 s until they are gone.
func (b *Broker) sweep(keep int) {
	for deadline := time.Now().Add(5 * time.Second); ; {
		pids := withEnv("HOME="+b.dir, keep)
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killTree SIGKILLs c, its process group and its descendants, and waits
// for c to be reaped.
func killTree(c *child) {
	if isDone(c) {
		return
	}
	pid := c.proc.Pid
	descendants := descendantsOf(pid)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	for _, d := range descendants {
		_ = syscall.Kill(d, syscall.SIGKILL)
	}
	<-c.done
}

// freePorts asks the kernel for n distinct free loopback ports. They are
// free when asked; another process could take one before the node binds
// it, which the start then reports.
func freePorts(n int) ([]int, error) {
	var ports []int
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
