// Package pgtemp starts a private, throwaway PostgreSQL cluster from the local
// server binaries. Tests use it when no TEST_DATABASE_URL is given, and the
// benchmark runner uses it in its default mode, so that neither needs a
// database server set up beforehand.
//
// A cluster lives in its own temporary folder (data directory and unix
// socket), listens on no TCP port, and is tuned for speed over durability
// (fsync off): its data is disposable. The server is a child process that
// dies with its parent, and folders left behind by a crashed parent are
// removed by the next Start.
//
// The package is Linux-only: it relies on Pdeathsig and /proc.
package pgtemp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"crudbench/internal/affinity"
)

const (
	// dirPrefix starts every cluster folder's name; the creator's PID follows,
	// so that a later Start can tell which folders are orphaned.
	dirPrefix = "crudbench-pg-"
	// port only names the socket file (.s.PGSQL.<port>): there is no TCP
	// listener and the socket folder is private, so a fixed value never clashes.
	port = 5432
	// maxSocketPath is the room in sockaddr_un.sun_path, less the final NUL.
	maxSocketPath = 107
	// readyTimeout bounds the wait for the first successful connection.
	readyTimeout = 30 * time.Second
	// stopTimeout bounds the fast shutdown before the server is killed.
	stopTimeout = 10 * time.Second
	// logTailLines is how much server output start-up errors quote.
	logTailLines = 50
)

// defaultSettings make the cluster fast and measurable: durability is
// pointless for throwaway data, the benchmark reads pg_stat_statements, and
// three application pools plus tests need more than the stock 100 connections.
var defaultSettings = map[string]string{
	"listen_addresses":         "",
	"fsync":                    "off",
	"synchronous_commit":       "off",
	"full_page_writes":         "off",
	"shared_preload_libraries": "pg_stat_statements",
	"pg_stat_statements.track": "all",
	"max_connections":          "300",
}

// Options tune a cluster; the zero value is fine.
type Options struct {
	// Settings are extra postgresql.conf settings (name -> value), e.g.
	// "max_connections": "200". They override the package's defaults.
	Settings map[string]string
	// Log receives the server's stderr and stdout (and initdb's); nil discards
	// them. The last lines are kept in memory either way for start-up errors.
	Log io.Writer
	// Root is the folder the cluster's folder is made in, and where Start
	// looks for stale ones first. Empty means /tmp (or, for an ordinary
	// user, a short TMPDIR). A program that leaves an orphan on purpose (a
	// crash test) gives it a root of its own, so that no other program's
	// Start cleans it up first. As root, the folder must be reachable by the
	// postgres user.
	Root string
	// CPUs, when set, are the only CPUs the server may run on: the
	// postmaster starts with that affinity and every backend and
	// auxiliary process it forks inherits it. Empty leaves it the
	// caller's. initdb, which ends before the server starts, runs on
	// the caller's.
	CPUs []int
}

// Cluster is a running throwaway PostgreSQL server. Call Stop when done.
type Cluster struct {
	dir  string
	log  *LogTail
	cpus []int       // the server's CPUs; empty: the caller's
	proc *os.Process // nil until postgres has been started

	// done is closed once the postmaster has exited and waitErr is set.
	done    chan struct{}
	waitErr error

	stopOnce sync.Once
	stopErr  error
}

// Start initdb's a new cluster in a fresh temporary folder, starts postgres
// on a unix socket in that folder, and waits until it accepts connections.
// ctx bounds the start-up only; the server runs until Stop.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	bin, err := FindBinDir()
	if err != nil {
		return nil, err
	}
	cred, err := serverCredential()
	if err != nil {
		return nil, err
	}
	root := opts.Root
	if root == "" {
		root = tempRoot()
	}
	removeStale(root)

	dir, err := os.MkdirTemp(root, dirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("pgtemp: create cluster folder: %w", err)
	}
	c := &Cluster{dir: dir, log: NewLogTail(opts.Log, logTailLines), cpus: opts.CPUs}
	if err := c.start(ctx, bin, cred, opts.Settings); err != nil {
		_ = c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context, bin string, cred *syscall.Credential, settings map[string]string) error {
	if n := len(c.socketPath()); n > maxSocketPath {
		return fmt.Errorf("pgtemp: socket path %s is %d bytes, over the limit of %d: set TMPDIR to a shorter folder", c.socketPath(), n, maxSocketPath)
	}
	if cred != nil {
		if err := os.Chown(c.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgtemp: hand cluster folder to the postgres user: %w", err)
		}
	}

	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"),
		"-D", c.dataDir(), "--no-sync", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C")
	c.prepare(initdb, cred)
	if err := initdb.Run(); err != nil {
		return c.errorf("initdb failed: %v", err)
	}

	args := []string{"-D", c.dataDir(), "-k", c.dir, "-p", strconv.Itoa(port)}
	merged := maps.Clone(defaultSettings)
	maps.Copy(merged, settings)
	for _, k := range slices.Sorted(maps.Keys(merged)) {
		args = append(args, "-c", k+"="+merged[k])
	}
	server := exec.Command(filepath.Join(bin, "postgres"), args...)
	c.prepare(server, cred)
	// Backends inherit the output pipe; don't let one that lingers after the
	// postmaster hold up Wait.
	server.WaitDelay = 2 * time.Second
	if err := c.run(server); err != nil {
		return c.errorf("start postgres: %v", err)
	}
	return c.waitReady(ctx)
}

// prepare sets what initdb and postgres have in common: output into the log,
// a working directory the postgres user can enter, and process attributes.
func (c *Cluster) prepare(cmd *exec.Cmd, cred *syscall.Credential) {
	cmd.Dir = c.dir
	cmd.Stdout = c.log
	cmd.Stderr = c.log
	cmd.SysProcAttr = &syscall.SysProcAttr{
		// Its own process group: a terminal's Ctrl-C goes to the parent, which
		// then stops the server in order.
		Setpgid: true,
		// No orphaned server if the parent crashes: the postmaster is killed,
		// and its children notice and exit. Go sets this after the credential
		// switch, which would otherwise clear it.
		Pdeathsig:  syscall.SIGKILL,
		Credential: cred,
	}
}

// run starts the postmaster on c.cpus with affinity.Start, which keeps
// the forking thread as long as the server runs, and reaps it in the
// background.
func (c *Cluster) run(cmd *exec.Cmd) error {
	c.done = make(chan struct{})
	err := affinity.Start("server", cmd, c.cpus, func(err error) {
		c.waitErr = err
		close(c.done)
	})
	if err != nil {
		c.done = nil
		return err
	}
	c.proc = cmd.Process
	return nil
}

// waitReady connects until the server answers, the server exits, or time runs out.
func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	connURL := c.URL("postgres")
	for {
		attemptCtx, attemptCancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(attemptCtx, connURL)
		if err == nil {
			err = conn.Close(attemptCtx)
			attemptCancel()
			return err
		}
		attemptCancel()
		select {
		case <-c.done:
			return c.errorf("postgres exited during start-up: %v", c.waitErr)
		case <-ctx.Done():
			return c.errorf("postgres did not accept connections (%v): last attempt: %v", ctx.Err(), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// errorf builds a start-up error that quotes the end of the server log,
// where the reason usually is.
func (c *Cluster) errorf(format string, args ...any) error {
	return fmt.Errorf("pgtemp: "+format+"\nserver log (last lines):\n%s", append(args, c.log.String())...)
}

// URL returns a connection URL (pgx and libpq style) for database dbname as
// the superuser "postgres", over the cluster's unix socket.
func (c *Cluster) URL(dbname string) string {
	// '/' is legal in a query value; keeping it makes the URL readable in logs.
	host := strings.ReplaceAll(url.QueryEscape(c.dir), "%2F", "/")
	return fmt.Sprintf("postgres://postgres@/%s?host=%s&port=%d&sslmode=disable", url.PathEscape(dbname), host, port)
}

// Dir is the cluster's temporary folder: the data directory ("data") and the
// unix socket live in it.
func (c *Cluster) Dir() string { return c.dir }

// PID is the postmaster's process ID, for sampling the server's CPU use.
func (c *Cluster) PID() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Pid
}

// Stop shuts the server down fast (SIGINT: running transactions are aborted),
// kills the server processes if that takes longer than 10 s, and removes the
// temporary folder. Calling it again returns the first call's result.
func (c *Cluster) Stop() error {
	c.stopOnce.Do(func() { c.stopErr = c.stop() })
	return c.stopErr
}

func (c *Cluster) stop() error {
	var errs []error
	if c.done != nil {
		select {
		case <-c.done:
		default:
			if err := c.proc.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
				errs = append(errs, fmt.Errorf("pgtemp: signal postgres: %w", err))
			}
			select {
			case <-c.done:
			case <-time.After(stopTimeout):
				killServer(c.proc.Pid)
				<-c.done
			}
		}
	}
	if err := os.RemoveAll(c.dir); err != nil {
		errs = append(errs, fmt.Errorf("pgtemp: remove cluster folder: %w", err))
	}
	return errors.Join(errs...)
}

func (c *Cluster) dataDir() string    { return filepath.Join(c.dir, "data") }
func (c *Cluster) socketPath() string { return filepath.Join(c.dir, ".s.PGSQL."+strconv.Itoa(port)) }

// serverCredential returns whom to run initdb and postgres as: nil (ourselves)
// normally, the "postgres" user when we are root, because the server refuses
// to run as root.
func serverCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtemp: running as root, which PostgreSQL refuses, and there is no \"postgres\" user to run it as: create one (e.g. useradd -r postgres; the Debian/Ubuntu postgresql package does): %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgtemp: postgres user's uid %q: %w", u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgtemp: postgres user's gid %q: %w", u.Gid, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// tempRoot is where cluster folders go. The socket path must fit in
// sun_path, and as root the folder must be reachable by the postgres user
// (a TMPDIR under root's home is not), so /tmp unless a short TMPDIR is set
// by an ordinary user.
func tempRoot() string {
	if os.Geteuid() != 0 {
		if dir := os.TempDir(); filepath.IsAbs(dir) && len(dir) <= 50 {
			return dir
		}
	}
	return "/tmp"
}
