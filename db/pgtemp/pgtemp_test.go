package pgtemp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"crudbench/db/pgtemp"
)

func TestFindBinDir(t *testing.T) {
	t.Run("found here", func(t *testing.T) {
		dir, err := pgtemp.FindBinDir()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"initdb", "postgres"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Errorf("FindBinDir() = %s, which lacks %s: %v", dir, name, err)
			}
		}
	})
	t.Run("PG_BIN_DIR wins", func(t *testing.T) {
		want, err := pgtemp.FindBinDir()
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("PG_BIN_DIR", want)
		t.Setenv("PATH", "")
		got, err := pgtemp.FindBinDir()
		if err != nil || got != want {
			t.Errorf("FindBinDir() = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("PG_BIN_DIR without binaries", func(t *testing.T) {
		t.Setenv("PG_BIN_DIR", t.TempDir())
		if dir, err := pgtemp.FindBinDir(); err == nil {
			t.Errorf("FindBinDir() = %q, want an error", dir)
		}
	})
}

func TestCluster(t *testing.T) {
	var log syncBuffer
	c := start(t, pgtemp.Options{Settings: map[string]string{"work_mem": "7MB"}, Log: &log})
	pid, dir := c.PID(), c.Dir()
	ctx := context.Background()

	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatalf("connect to %s: %v", c.URL("postgres"), err)
	}
	t.Run("settings", func(t *testing.T) { checkSettings(t, conn) })
	t.Run("pg_stat_statements", func(t *testing.T) {
		if _, err := conn.Exec(ctx, "CREATE EXTENSION pg_stat_statements"); err != nil {
			t.Fatal(err)
		}
		var calls int64
		if err := conn.QueryRow(ctx, "SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements").Scan(&calls); err != nil {
			t.Fatal(err)
		}
		if calls == 0 {
			t.Error("pg_stat_statements recorded no calls")
		}
	})
	t.Run("another database", func(t *testing.T) {
		if _, err := conn.Exec(ctx, "CREATE DATABASE other"); err != nil {
			t.Fatal(err)
		}
		other, err := pgx.Connect(ctx, c.URL("other"))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close(ctx)
		var name string
		if err := other.QueryRow(ctx, "SELECT current_database()").Scan(&name); err != nil || name != "other" {
			t.Errorf("current_database() = %q, %v; want other", name, err)
		}
	})
	if comm := readComm(pid); comm != "postgres" {
		t.Errorf("PID() = %d runs %q, want postgres", pid, comm)
	}
	if err := conn.Close(ctx); err != nil {
		t.Fatal(err)
	}

	t.Run("Stop", func(t *testing.T) { checkStop(t, c, pid, dir) })
	if !strings.Contains(log.String(), "ready to accept connections") {
		t.Errorf("Options.Log got no readiness line; got:\n%s", log.String())
	}
}

// checkSettings checks that the cluster runs with the package's settings
// and the test's own work_mem.
func checkSettings(t *testing.T, conn *pgx.Conn) {
	ctx := context.Background()
	for name, want := range map[string]string{
		"shared_preload_libraries": "pg_stat_statements",
		"pg_stat_statements.track": "all",
		"max_connections":          "300",
		"fsync":                    "off",
		"listen_addresses":         "",
		"work_mem":                 "7MB",
	} {
		var got string
		if err := conn.QueryRow(ctx, "SHOW "+name).Scan(&got); err != nil {
			t.Fatalf("SHOW %s: %v", name, err)
		}
		if got != want {
			t.Errorf("SHOW %s = %q, want %q", name, got, want)
		}
	}
}

// checkStop stops cluster c, whose postmaster is pid in folder dir, and
// checks that the server, its children and the folder are gone, and that a
// second Stop is harmless.
func checkStop(t *testing.T, c *pgtemp.Cluster, pid int, dir string) {
	children := childrenOf(pid)
	if len(children) == 0 {
		t.Fatalf("postmaster %d has no children; want its background processes", pid)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("folder %s still there after Stop (stat: %v)", dir, err)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("postmaster %d still in /proc after Stop (stat: %v)", pid, err)
	}
	if left := living(children); len(left) > 0 {
		t.Errorf("server processes %v still run after Stop", left)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

func TestStartReportsServerErrors(t *testing.T) {
	before := ownFolders(t)
	c, err := pgtemp.Start(context.Background(), pgtemp.Options{Settings: map[string]string{"max_connections": "lots"}})
	if err == nil {
		_ = c.Stop()
		t.Fatal("Start with max_connections=lots succeeded, want an error")
	}
	if !strings.Contains(err.Error(), `invalid value for parameter "max_connections"`) {
		t.Errorf("Start error does not quote the server log:\n%v", err)
	}
	if after := ownFolders(t); len(after) != len(before) {
		t.Errorf("failed Start left folders behind: before %v, after %v", before, after)
	}
}

// start starts a cluster and stops it when the test ends.
func start(t *testing.T, opts pgtemp.Options) *pgtemp.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgtemp.Start(ctx, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	return c
}

func waitFor(t *testing.T, limit time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for "+format, append([]any{limit}, args...)...)
		}
	}
}

// alive reports whether pid runs; a zombie (dead, not yet reaped, perhaps by
// an init that never reaps) counts as dead.
func alive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != 'Z' && state != 'X'
}

// living returns those of pids that still run.
func living(pids []int) []int {
	var left []int
	for _, pid := range pids {
		if alive(pid) {
			left = append(left, pid)
		}
	}
	return left
}

// childrenOf lists the processes whose parent is pid. PostgreSQL's server
// processes each call setsid(), so the postmaster's process group does not
// find them.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var children []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, parent, ok := procStat(child); ok && parent == pid {
			children = append(children, child)
		}
	}
	return children
}

// procStat reads a process's state and parent from /proc/<pid>/stat.
func procStat(pid int) (state byte, ppid int, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// After the command name: state ppid ...
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(fields[1])
	return fields[0][0], ppid, err == nil
}

func readComm(pid int) string {
	comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(comm))
}

// ownFolders lists this process's cluster folders.
func ownFolders(t *testing.T) []string {
	t.Helper()
	var all []string
	for _, root := range []string{os.TempDir(), "/tmp"} {
		dirs, err := filepath.Glob(filepath.Join(root, fmt.Sprintf("crudbench-pg-%d-*", os.Getpid())))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, dirs...)
	}
	return all
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestCPUs starts a cluster on one CPU and reads the CPUs of its
// postmaster and of a backend, which must have inherited them, while the
// test's own threads keep theirs.
func TestCPUs(t *testing.T) {
	allowed := cpusAllowed(t, os.Getpid())
	one := allowed[strings.LastIndexAny(allowed, ",-")+1:] // its last CPU
	cpu, err := strconv.Atoi(one)
	if err != nil {
		t.Fatalf("Cpus_allowed_list %q: %v", allowed, err)
	}
	c := start(t, pgtemp.Options{CPUs: []int{cpu}})
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var backend int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		t.Fatal(err)
	}
	for name, pid := range map[string]int{"postmaster": c.PID(), "backend": backend} {
		if got := cpusAllowed(t, pid); got != one {
			t.Errorf("the %s (pid %d) may run on CPUs %s, want %s", name, pid, got, one)
		}
	}
	if got := cpusAllowed(t, os.Getpid()); got != allowed {
		t.Errorf("the test process may run on CPUs %s after the start, want its own %s", got, allowed)
	}
}

// cpusAllowed is Cpus_allowed_list of process pid.
func cpusAllowed(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no Cpus_allowed_list in the status of %d", pid)
	return ""
}
