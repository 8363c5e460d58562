package cpuset

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Machine is what a split of the CPUs needs to know of the machine.
type Machine struct {
	// Online is the CPUs the machine has running; Allowed those of them
	// the runner may use (its affinity when it starts, e.g. under taskset
	// or a container's cpuset).
	Online, Allowed Set
	// Cores groups Allowed by physical core: the hardware threads of one
	// core share its execution units, so a split keeps them on one side.
	Cores []Set
}

// ThisMachine reads the machine the runner is on. Call it before the
// runner restricts itself, or Allowed is what it restricted itself to.
func ThisMachine() (Machine, error) {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return Machine{}, fmt.Errorf("read the machine's CPUs: %w", err)
	}
	online, err := Parse(string(b))
	if err != nil {
		return Machine{}, fmt.Errorf("read the machine's CPUs: %w", err)
	}
	allowed, err := Allowed(os.Getpid())
	if err != nil {
		return Machine{}, err
	}
	return Machine{Online: online, Allowed: allowed, Cores: cores(allowed)}, nil
}

// cores groups allowed by the core each CPU belongs to (its siblings in
// /sys/devices/system/cpu/cpuN/topology), in the order of their first
// CPU; a CPU whose siblings cannot be read is a core of its own.
func cores(allowed Set) []Set {
	var out []Set
	seen := Set{}
	for _, c := range allowed {
		if seen.Contains(c) {
			continue
		}
		core := Of(c)
		dir := filepath.Join("/sys/devices/system/cpu", "cpu"+strconv.Itoa(c), "topology")
		for _, name := range []string{"core_cpus_list", "thread_siblings_list"} {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				if siblings, err := Parse(strings.TrimSpace(string(b))); err == nil && siblings.Contains(c) {
					core = siblings.And(allowed)
				}
				break
			}
		}
		out = append(out, core)
		seen = Of(append(seen, core...)...)
	}
	return out
}

// Split divides the runner's CPUs into two sides: app gets the last half
// of its cores (rounded down), rest the others, so that on two CPUs each
// side has one and CPU 0, which serves most of the kernel's interrupts,
// stays with the rest. Hardware threads of one core stay on one side
// unless the runner has a single core. ok is false below two CPUs.
func (m Machine) Split() (app, rest Set, ok bool) {
	if len(m.Allowed) < 2 {
		return nil, nil, false
	}
	groups := m.Cores
	if len(groups) < 2 {
		groups = nil
		for _, c := range m.Allowed {
			groups = append(groups, Of(c))
		}
	}
	cut := len(groups) - len(groups)/2
	for i, g := range groups {
		if i < cut {
			rest = append(rest, g...)
		} else {
			app = append(app, g...)
		}
	}
	return Of(app...), Of(rest...), true
}

// PinProcess restricts every thread of the calling process to s and sets
// GOMAXPROCS to its size. sched_setaffinity applies to one thread, and a
// new thread inherits the affinity of the one that made it, so the
// threads are set until a pass over /proc/self/task finds none left
// outside s (a thread made during a pass may have copied an old mask).
func PinProcess(s Set) error {
	if len(s) == 0 {
		return fmt.Errorf("pin the runner: an empty CPU set")
	}
	const passes = 10
	for range passes {
		entries, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("pin the runner: %w", err)
		}
		changed := false
		for _, e := range entries {
			tid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if cur, err := Thread(tid); err == nil && cur.String() == s.String() {
				continue
			}
			if err := setTask(tid, s); err != nil {
				return fmt.Errorf("pin the runner's thread %d to CPUs %s: %w", tid, s, err)
			}
			changed = true
		}
		if !changed {
			runtime.GOMAXPROCS(len(s))
			return nil
		}
	}
	return fmt.Errorf("pin the runner to CPUs %s: threads kept appearing outside the set after %d passes", s, passes)
}
