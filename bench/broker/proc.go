package broker

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// descendantsOf lists the living processes below pid: its children,
// theirs, and so on.
func descendantsOf(pid int) []int {
	parents := parentsByPID()
	var out []int
	frontier := []int{pid}
	for len(frontier) > 0 {
		var next []int
		for child, parent := range parents {
			for _, p := range frontier {
				if parent == p {
					next = append(next, child)
				}
			}
		}
		out = append(out, next...)
		frontier = next
	}
	return out
}

// parentsByPID maps every living process to its parent, from /proc.
// Processes that vanish mid-read are left out.
func parentsByPID() map[int]int {
	entries, _ := os.ReadDir("/proc")
	parents := make(map[int]int, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, ppid, ok := procStat(pid)
		if ok && state != 'Z' && state != 'X' {
			parents[pid] = ppid
		}
	}
	return parents
}

// procStat reads a process's state and parent from /proc/<pid>/stat,
// after the command name, which may itself contain ") ".
func procStat(pid int) (state byte, ppid int, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(fields[1])
	return fields[0][0], ppid, err == nil
}

// withEnv lists the living processes but keep whose environment holds
// the entry kv ("HOME=/tmp/…"). Processes that vanish or cannot be read
// are left out.
func withEnv(kv string, keep int) []int {
	want := []byte(kv)
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == keep || pid == os.Getpid() || !processAlive(pid) {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, entry := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(entry, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// processAlive reports whether pid runs; a zombie counts as dead.
func processAlive(pid int) bool {
	state, _, ok := procStat(pid)
	return ok && state != 'Z' && state != 'X'
}

// removeStale deletes the node folders of processes that are gone: a
// caller killed before it could call Stop leaves its folder behind (its
// node and epmd died with it, by the parent-death signal). Best effort.
func removeStale(root string) {
	dirs, _ := filepath.Glob(filepath.Join(root, dirPrefix+"*"))
	for _, dir := range dirs {
		rest := strings.TrimPrefix(filepath.Base(dir), dirPrefix)
		digits, _, _ := strings.Cut(rest, "-")
		owner, err := strconv.Atoi(digits)
		if err != nil || owner <= 0 || processAlive(owner) {
			continue
		}
		_ = os.RemoveAll(dir)
	}
}

// lastLines is the end of a text file, at most n lines; "" when it cannot
// be read.
func lastLines(path string, n int) string {
	content, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(content), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
