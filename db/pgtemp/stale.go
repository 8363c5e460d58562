package pgtemp

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// removeStale deletes the cluster folders of processes that are gone, in root
// and in /tmp: a test binary or benchmark killed before it could call Stop
// leaves its folder (and, without the parent-death signal, possibly a running
// server) behind. It is best effort: whatever cannot be removed now is retried
// by the next Start.
func removeStale(root string) {
	roots := []string{root}
	if root != "/tmp" {
		roots = append(roots, "/tmp")
	}
	for _, root := range roots {
		dirs, _ := filepath.Glob(filepath.Join(root, dirPrefix+"*"))
		for _, dir := range dirs {
			owner, ok := ownerPID(filepath.Base(dir))
			if !ok || processAlive(owner) {
				continue
			}
			killOrphan(filepath.Join(dir, "data"))
			_ = os.RemoveAll(dir)
		}
	}
}

// ownerPID reads the creator's PID from a folder name crudbench-pg-<pid>-<random>.
func ownerPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, dirPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// killOrphan kills the postmaster still serving dataDir, if any, and its
// children. The PID in postmaster.pid may since have been
// reused, so the process must be a postgres whose command line names this
// data directory.
func killOrphan(dataDir string) {
	content, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return
	}
	first, _, _ := strings.Cut(string(content), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 0 || !processAlive(pid) || !servesDataDir(pid, dataDir) {
		return
	}
	killServer(pid)
	for deadline := time.Now().Add(3 * time.Second); processAlive(pid) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
}

// killServer SIGKILLs a postmaster and its children. The children are named
// one by one because each server process calls setsid(): a kill of the
// postmaster's process group misses them, and a backend busy in a long query
// would outlive the postmaster for a while.
func killServer(pid int) {
	children := childrenOf(pid)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	for _, child := range children {
		_ = syscall.Kill(child, syscall.SIGKILL)
	}
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var children []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// After the command name: state ppid ...
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) >= 2 && fields[1] == strconv.Itoa(pid) {
			children = append(children, child)
		}
	}
	return children
}

func servesDataDir(pid int, dataDir string) bool {
	proc := "/proc/" + strconv.Itoa(pid)
	comm, err := os.ReadFile(proc + "/comm")
	if err != nil || strings.TrimSpace(string(comm)) != "postgres" {
		return false
	}
	cmdline, err := os.ReadFile(proc + "/cmdline")
	if err != nil {
		return false
	}
	return slices.ContainsFunc(bytes.Split(cmdline, []byte{0}), func(arg []byte) bool { return string(arg) == dataDir })
}

// processAlive reports whether pid runs. A zombie counts as dead: it holds no
// files and only waits for a parent (maybe an init that never reaps) to
// collect its status.
func processAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which may itself contain ") ".
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	state := stat[i+2]
	return state != 'Z' && state != 'X'
}
