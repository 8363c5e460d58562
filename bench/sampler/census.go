package sampler

import (
	"cmp"
	"os"
	"slices"
	"strconv"
	"time"
)

// Census is every process on the machine at one moment with the CPU time
// it has used so far: two of them tell which processes used the CPU
// between them. It is what names the "other processes" when the machine
// was busier than the app, PostgreSQL and the runner together — a reading
// of all of /proc (a few hundred files), taken at the start and end of an
// attack rather than at every sample.
type Census struct {
	At    time.Time
	Procs map[int]Proc
}

// Proc is one process in a Census.
type Proc struct {
	PID, PPID int
	// Name is its command name (comm), e.g. "postgres" or "kworker/0:1".
	Name string
	// CPU is its own CPU time so far, from its CPU clock, plus that of
	// the children it has reaped (in /proc's ticks): a build tool's
	// compilers come and go between two censuses, and their time is then
	// their parent's to name. startTime tells it from a later process
	// with the same pid.
	CPU       time.Duration
	startTime uint64
}

// TakeCensus reads every process in /proc. Processes that vanish while it
// reads are left out; it fails only when /proc cannot be listed.
func TakeCensus() (Census, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return Census{}, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return Census{}, err
	}
	c := Census{At: time.Now(), Procs: make(map[int]Proc, len(names))}
	var r procReader
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue // not a process
		}
		b, err := r.read(pid, "stat")
		if err != nil {
			continue
		}
		st, err := parseStat(b)
		if err != nil {
			continue
		}
		open, closing, _ := commBounds(b)
		p := Proc{PID: pid, PPID: st.ppid, Name: string(b[open+1 : closing]), startTime: st.startTime}
		if p.CPU, err = processCPU(pid); err != nil {
			continue
		}
		p.CPU += ticksDuration(st.childTicks())
		c.Procs[pid] = p
	}
	return c, nil
}

// Use is one process's CPU between two censuses, in cores.
type Use struct {
	PID   int
	Name  string
	Cores float64
}

// Busiest returns the processes of later that used CPU since c, busiest
// first, leaving out roots and their descendants (by later's parents) —
// the processes whose CPU is measured otherwise. A process that started
// between the two counts with all its time; one that ended is not there
// to name: its time went to its parent's, whole (from before the first
// census too), so a parent's figure can be a little high.
func (c Census) Busiest(later Census, roots ...int) []Use {
	wall := later.At.Sub(c.At).Seconds()
	if wall <= 0 {
		return nil
	}
	var out []Use
	for pid, p := range later.Procs {
		if descends(later.Procs, pid, roots) {
			continue
		}
		used := p.CPU
		if before, ok := c.Procs[pid]; ok && before.startTime == p.startTime {
			used -= before.CPU
		}
		if used > 0 {
			out = append(out, Use{PID: pid, Name: p.Name, Cores: used.Seconds() / wall})
		}
	}
	slices.SortFunc(out, func(a, b Use) int {
		return cmp.Or(cmp.Compare(b.Cores, a.Cores), cmp.Compare(a.PID, b.PID))
	})
	return out
}

// descends reports whether pid is one of roots or below one, following
// procs' parents (at most len(procs) steps: a cycle, which /proc read at
// different moments could show, ends the walk).
func descends(procs map[int]Proc, pid int, roots []int) bool {
	for range len(procs) + 1 {
		if pid <= 0 {
			return false
		}
		if slices.Contains(roots, pid) {
			return true
		}
		p, ok := procs[pid]
		if !ok {
			return false
		}
		pid = p.PPID
	}
	return false
}
