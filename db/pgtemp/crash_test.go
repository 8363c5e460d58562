package pgtemp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"crudbench/db/pgtemp"
)

// helperEnv switches a re-executed test binary into the crash helper: it
// starts a cluster, prints "<postmaster PID> <folder>" and waits to be killed.
const helperEnv = "PGTEMP_TEST_CRASH_HELPER"

// helperRootEnv names the folder the crash helper makes its cluster in: one
// of the test's own, so that the orphan it leaves is cleaned up by the test's
// Start and not first by a Start in another test binary running beside it
// (go test runs packages in parallel, and any Start removes stale folders
// from its root).
const helperRootEnv = "PGTEMP_TEST_CRASH_ROOT"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		crashHelper()
		return
	}
	os.Exit(m.Run())
}

func crashHelper() {
	c, err := pgtemp.Start(context.Background(), pgtemp.Options{Root: os.Getenv(helperRootEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%d %s\n", c.PID(), c.Dir())
	// The parent kills us long before this; the limit only bounds a helper
	// whose parent went away.
	time.Sleep(time.Minute)
	_ = c.Stop()
	os.Exit(0)
}

// TestCrashedParent kills a process that runs a cluster, as a crash or
// `kill -9` of a test binary would, and checks that the server dies with it.
// It then restarts a server in the folder left behind, as an orphan of a
// parent without the parent-death signal, and checks that the next Start
// kills that server and removes the folder.
func TestCrashedParent(t *testing.T) {
	bin, err := pgtemp.FindBinDir()
	if err != nil {
		t.Fatal(err)
	}
	root := privateRoot(t)
	dir := crashParent(t, root)
	orphan, exited, log := restartOrphan(t, bin, dir)
	orphanChildren := childrenOf(orphan)

	c := start(t, pgtemp.Options{Root: root})
	// Start waits for the kill, so the orphan is gone (only left to reap).
	select {
	case <-exited:
	case <-time.After(time.Second):
		t.Errorf("Start left the orphaned server %d running; its log:\n%s", orphan, log)
	}
	waitFor(t, 5*time.Second, func() bool { return len(living(orphanChildren)) == 0 }, "orphan's children %v to exit", orphanChildren)
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Start left the stale folder %s (stat: %v)", dir, err)
	}
	if err := c.Stop(); err != nil {
		t.Error(err)
	}
}

// crashParent runs the crash helper, which starts a cluster under root,
// kills it, waits for its server to die with it, and returns the folder
// the cluster left behind.
func crashParent(t *testing.T, root string) string {
	t.Helper()
	helper := exec.Command(os.Args[0], "-test.run=^$")
	helper.Env = append(os.Environ(), helperEnv+"=1", helperRootEnv+"="+root)
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
		t.Fatalf("read the helper's cluster (PID and folder): %v", err)
	}
	var pid int
	var dir string
	if _, err := fmt.Sscanf(line, "%d %s", &pid, &dir); err != nil {
		t.Fatalf("helper printed %q: %v", line, err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if !alive(pid) {
		t.Fatalf("postmaster %d is not running before the crash", pid)
	}
	children := childrenOf(pid)

	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	waitFor(t, 5*time.Second, func() bool { return !alive(pid) && len(living(children)) == 0 },
		"postmaster %d and its children %v to die with their parent", pid, children)
	return dir
}

// restartOrphan starts a server on the crashed cluster's folder, as one
// that outlived its parent, and returns its PID, a channel closed when it
// exits, and its log.
func restartOrphan(t *testing.T, bin, dir string) (int, <-chan struct{}, *syncBuffer) {
	t.Helper()
	// The dead postmaster may linger as a zombie (when PID 1 does not reap),
	// which its successor would take for a running server.
	for _, lock := range []string{filepath.Join(dir, "data", "postmaster.pid"), filepath.Join(dir, ".s.PGSQL.5432.lock")} {
		if err := os.Remove(lock); err != nil {
			t.Fatal(err)
		}
	}
	orphan := exec.Command(filepath.Join(bin, "postgres"), "-D", filepath.Join(dir, "data"), "-k", dir, "-c", "listen_addresses=")
	orphan.Dir = dir
	orphan.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: ownerOf(t, dir)}
	var log syncBuffer
	orphan.Stdout, orphan.Stderr = &log, &log
	if err := orphan.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = orphan.Wait(); close(exited) }()
	t.Cleanup(func() { _ = syscall.Kill(orphan.Process.Pid, syscall.SIGKILL); <-exited })
	orphanURL := "postgres://postgres@/postgres?host=" + dir + "&sslmode=disable"
	waitFor(t, 10*time.Second, func() bool {
		select {
		case <-exited:
			t.Fatalf("orphan server exited; its log:\n%s", &log)
		default:
		}
		conn, err := pgx.Connect(context.Background(), orphanURL)
		if err == nil {
			_ = conn.Close(context.Background())
		}
		return err == nil
	}, "orphan server to accept connections; its log:\n%s", &log)
	return orphan.Process.Pid, exited, &log
}

// privateRoot makes a short folder under /tmp for clusters of this test
// alone, reachable by the postgres user the server runs as under root.
func privateRoot(t *testing.T) string {
	t.Helper()
	root, err := os.MkdirTemp("/tmp", "pgtemp-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(root) })
	return root
}

// ownerOf returns the credential of folder's owner when we are root (the
// server refuses root), else nil.
func ownerOf(t *testing.T, folder string) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	fi, err := os.Stat(folder)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return &syscall.Credential{Uid: st.Uid, Gid: st.Gid}
}
