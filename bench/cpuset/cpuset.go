// Package cpuset reads and sets which CPUs processes may run on (their
// affinity), so that the app under test and the rest of a benchmark
// (PostgreSQL, the runner and its load generator) can each have CPUs of
// their own on one machine. Sets are written as the kernel writes them in
// Cpus_allowed_list ("0-2,5"). Linux only: it relies on /proc, /sys and
// sched_setaffinity.
package cpuset

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxCPUs is how many CPUs a unix.CPUSet holds (glibc's CPU_SETSIZE).
const maxCPUs = 8 * int(unsafe.Sizeof(unix.CPUSet{}))

// Set is a set of CPU numbers, sorted and without repeats.
type Set []int

// Parse reads a CPU list in the kernel's format: numbers and ranges,
// comma-separated, e.g. "0-2,5".
func Parse(list string) (Set, error) {
	var s Set
	for item := range strings.SplitSeq(strings.TrimSpace(list), ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(item, "-")
		first, err := strconv.Atoi(strings.TrimSpace(lo))
		last := first
		if err == nil && isRange {
			last, err = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err != nil || first < 0 || last < first {
			return nil, fmt.Errorf("CPU list %q: %q is neither a CPU number nor a range like 0-3", list, item)
		}
		if last >= maxCPUs {
			return nil, fmt.Errorf("CPU list %q: CPU %d is beyond the %d the affinity calls take", list, last, maxCPUs)
		}
		for c := first; c <= last; c++ {
			s = append(s, c)
		}
	}
	if len(s) == 0 {
		return nil, fmt.Errorf("CPU list %q names no CPU", list)
	}
	return Of(s...), nil
}

// Of returns the set of the given CPUs.
func Of(cpus ...int) Set {
	s := slices.Clone(cpus)
	slices.Sort(s)
	return slices.Compact(s)
}

// String writes s as the kernel does, ranges folded: "0-2,5".
func (s Set) String() string {
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(s[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", s[i], s[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// Contains reports whether cpu is in s.
func (s Set) Contains(cpu int) bool {
	_, ok := slices.BinarySearch(s, cpu)
	return ok
}

// And is the CPUs in both s and o.
func (s Set) And(o Set) Set {
	var out Set
	for _, c := range s {
		if o.Contains(c) {
			out = append(out, c)
		}
	}
	return out
}

// Minus is the CPUs of s that are not in o.
func (s Set) Minus(o Set) Set {
	var out Set
	for _, c := range s {
		if !o.Contains(c) {
			out = append(out, c)
		}
	}
	return out
}

// mask is s as the kernel interface takes it.
func (s Set) mask() *unix.CPUSet {
	var m unix.CPUSet
	for _, c := range s {
		m.Set(c)
	}
	return &m
}

// fromMask is the set of the CPUs in m.
func fromMask(m *unix.CPUSet) Set {
	var s Set
	for c := range maxCPUs {
		if m.IsSet(c) {
			s = append(s, c)
		}
	}
	return s
}

// OnThread runs start with the calling OS thread restricted to s, so
// that the process start forks inherits s (a child starts with its
// parent thread's affinity), and gives the thread its own mask back
// afterwards. The caller has locked its goroutine to the thread
// (runtime.LockOSThread); when restored is false it keeps it locked
// until the goroutine exits, so that the thread ends with it instead of
// running other goroutines on s.
func OnThread(s Set, start func() error) (restored bool, err error) {
	if len(s) == 0 {
		return true, errors.New("set the CPU affinity: an empty CPU set")
	}
	var own unix.CPUSet
	if err := unix.SchedGetaffinity(0, &own); err != nil {
		return true, fmt.Errorf("read the CPU affinity: %w", err)
	}
	if err := unix.SchedSetaffinity(0, s.mask()); err != nil {
		return false, fmt.Errorf("set the CPU affinity to %s: %w", s, err)
	}
	err = start()
	return unix.SchedSetaffinity(0, &own) == nil, err
}

// Thread is the CPUs task tid (a thread or process id; 0 is the calling
// thread) may run on.
func Thread(tid int) (Set, error) {
	var m unix.CPUSet
	if err := unix.SchedGetaffinity(tid, &m); err != nil {
		return nil, fmt.Errorf("read the CPU affinity of %d: %w", tid, err)
	}
	return fromMask(&m), nil
}

// setTask restricts thread tid to s; a thread that exited meanwhile is
// no error.
func setTask(tid int, s Set) error {
	err := unix.SchedSetaffinity(tid, s.mask())
	if errors.Is(err, unix.ESRCH) {
		return nil
	}
	return err
}

// Allowed is the CPUs process pid may run on, as /proc/<pid>/status says
// (Cpus_allowed_list): readable for any visible process, the runner's own
// or not.
func Allowed(pid int) (Set, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return nil, fmt.Errorf("read the CPUs of process %d: %w", pid, err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return Parse(v)
		}
	}
	return nil, fmt.Errorf("read the CPUs of process %d: no Cpus_allowed_list in its status", pid)
}
