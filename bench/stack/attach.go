package stack

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ParseAttach reads "-attach rest=http://host:8081,graphql=…" into app name
// → base URL.
func ParseAttach(value string) (map[string]string, error) {
	out := map[string]string{}
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, url, ok := strings.Cut(item, "=")
		if !ok || name == "" || url == "" {
			return nil, fmt.Errorf("-attach %q: want app=URL, e.g. rest=http://localhost:8081", item)
		}
		out[strings.TrimSpace(name)] = strings.TrimRight(strings.TrimSpace(url), "/")
	}
	return out, nil
}

// ParsePIDs reads "-pid rest=123,graphql=456" into app name → process id.
func ParsePIDs(value string) (map[string]int, error) {
	out := map[string]int{}
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, num, ok := strings.Cut(item, "=")
		pid, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil || pid <= 0 {
			return nil, fmt.Errorf("-pid %q: want app=PID, e.g. rest=1234", item)
		}
		out[strings.TrimSpace(name)] = pid
	}
	return out, nil
}

// FindProcess returns the one process whose command name (/proc/<pid>/comm,
// the executable's name cut to 15 bytes) is name. It fails when there is
// none visible or more than one, naming the candidates.
func FindProcess(name string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("find process %s: %w", name, err)
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil { // gone meanwhile, or not ours to read
			continue
		}
		if strings.TrimSpace(string(b)) == name {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	switch len(pids) {
	case 0:
		return 0, fmt.Errorf("no process named %q is visible", name)
	case 1:
		return pids[0], nil
	}
	return 0, fmt.Errorf("%d processes are named %q (pids %v): give the right one with -pid %s=PID", len(pids), name, pids, name)
}

// Alive reports whether process pid exists and is visible.
func Alive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}
