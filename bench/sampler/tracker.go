package sampler

import (
	"runtime"
	"syscall"
	"time"
)

// tracker holds one target's state between samples. Only the sampling
// goroutine touches it.
type tracker struct {
	target Target
	// stat and status are the root's files; status (VmRSS) only for a
	// single process.
	stat, status procFile

	// startTime is the root's start time once seen: a different value
	// after reopening means the pid now belongs to another process.
	startTime uint64
	seen      bool

	// members are the root's known descendants (tree targets) by pid.
	members map[int]*member
	// rss is the tree's last Pss total, carried between refreshes.
	rss uint64
	// lag bounds how far a process's CPU clock trails at a read.
	lag lagBound

	samples []Sample
	misses  []time.Time
}

// member is a process in a target's tree other than the root.
type member struct {
	stat procStat
	cpu  time.Duration // its CPU clock, read right after stat
	file procFile
}

// lagBound bounds how much CPU time a process's clock may not show yet:
// the kernel adds a running thread's time to the clock at every scheduler
// tick and context switch, so each thread on a CPU at the moment of a read
// has up to one tick uncounted, and at most one thread per CPU runs.
type lagBound struct {
	tick time.Duration
	cpus int
}

// newLagBound measures this machine's tick and counts its CPUs.
func newLagBound() lagBound {
	return lagBound{tick: schedulerTick(), cpus: runtime.NumCPU()}
}

// of is the bound for process p.
func (l lagBound) of(p procStat) time.Duration {
	return time.Duration(min(max(p.threads, 1), l.cpus)) * l.tick
}

// childrenLag is how much reaped children's time /proc/<pid>/stat may not
// show: it counts cutime and cstime in whole ticks, each truncated.
const childrenLag = 2 * time.Second / ClockTicksPerSecond

func newTracker(t Target, lag lagBound) *tracker {
	return &tracker{
		target:  t,
		stat:    procFile{pid: t.PID, name: "stat"},
		status:  procFile{pid: t.PID, name: "status"},
		members: make(map[int]*member),
		lag:     lag,
	}
}

// sample reads the target once at time now and records a Sample or a
// miss. full asks a tree to look for new members and to measure its memory
// again.
func (t *tracker) sample(r *procReader, now time.Time, full bool) {
	root, err := readStat(r, &t.stat)
	if err != nil || (t.seen && root.startTime != t.startTime) {
		t.miss(now)
		return
	}
	t.seen, t.startTime = true, root.startTime
	cpu, err := processCPU(root.pid)
	if err != nil {
		t.miss(now)
		return
	}
	behind := t.lag.of(root)

	if !t.target.Tree {
		b, err := t.status.read(r)
		if err != nil {
			t.miss(now)
			return
		}
		rss, _ := parseKB(b, "VmRSS:") // a zombie has none: zero
		t.samples = append(t.samples, Sample{At: now, CPU: cpu, CPUBehind: behind, RSSBytes: rss})
		return
	}

	full = full || len(t.samples) == 0
	if !full || !t.refreshMembers(r, root) {
		t.rereadMembers(r)
	}
	// Every process counts its own time plus its reaped children's: when a
	// backend exits, its time moves into its parent's cutime, so the total
	// stays continuous whoever reaps whom. The reaped children's time comes
	// in whole ticks: a process that has reaped none lacks nothing there,
	// the root (the one that reaps, in PostgreSQL) is assumed to have.
	cpu += ticksDuration(root.childTicks())
	behind += childrenLag
	for _, m := range t.members {
		cpu += m.cpu + ticksDuration(m.stat.childTicks())
		behind += t.lag.of(m.stat)
		if m.stat.childTicks() > 0 {
			behind += childrenLag
		}
	}
	if full {
		t.rss = t.treeMemory(r)
	}
	t.samples = append(t.samples, Sample{At: now, CPU: cpu, CPUBehind: behind, RSSBytes: t.rss})
}

// readStat reads and parses a held stat file.
func readStat(r *procReader, f *procFile) (procStat, error) {
	b, err := f.read(r)
	if err != nil {
		return procStat{}, err
	}
	return parseStat(b)
}

// miss records that the target could not be read at time now, and lets go
// of its files: the next sample starts afresh.
func (t *tracker) miss(now time.Time) {
	t.misses = append(t.misses, now)
	t.close()
}

// close releases the target's open files.
func (t *tracker) close() {
	t.stat.close()
	t.status.close()
	for pid, m := range t.members {
		m.file.close()
		delete(t.members, pid)
	}
}

// rereadMembers updates the known members' CPU times and drops those that
// exited (their time is now in their parent's cutime) or left the tree.
func (t *tracker) rereadMembers(r *procReader) {
	for pid, m := range t.members {
		p, err := readStat(r, &m.file)
		var cpu time.Duration
		if err == nil {
			cpu, err = processCPU(pid)
		}
		if err != nil || !t.inTree(p.ppid) {
			m.file.close()
			delete(t.members, pid)
			continue
		}
		m.stat, m.cpu = p, cpu
	}
}

// inTree reports whether pid is the root or a known member.
func (t *tracker) inTree(pid int) bool {
	_, ok := t.members[pid]
	return ok || pid == t.target.PID
}

// refreshMembers replaces the members with the root's descendants, found
// breadth-first, and reads their stat. Members still there keep their open
// files. It reports false, leaving the members alone, when the children
// cannot be listed.
func (t *tracker) refreshMembers(r *procReader, root procStat) bool {
	list, kids, err := r.lister(root)
	if err != nil {
		return false
	}
	found := make(map[int]*member, len(t.members))
	for queue := []procStat{root}; len(queue) > 0; queue = queue[1:] {
		parent := queue[0]
		if parent.pid != root.pid {
			if kids, err = list(parent); err != nil {
				continue // it exited since we read it: no children to add
			}
		}
		for _, pid := range kids {
			if found[pid] != nil || pid == root.pid {
				continue
			}
			m, known := t.members[pid]
			if !known {
				m = &member{file: procFile{pid: pid, name: "stat"}}
			}
			p, err := readStat(r, &m.file)
			if err != nil && known {
				// A held file fails once its process is gone, even when
				// the pid has a new owner: try the pid afresh.
				p, err = readStat(r, &m.file)
			}
			var cpu time.Duration
			if err == nil {
				cpu, err = processCPU(pid)
			}
			if err != nil || p.ppid != parent.pid {
				m.file.close()
				continue
			}
			m.stat, m.cpu = p, cpu
			found[pid] = m
			queue = append(queue, p)
		}
	}
	for pid, m := range t.members {
		if found[pid] != m {
			m.file.close()
		}
	}
	t.members = found
	return true
}

// treeMemory sums the Pss of the root and its members. A process whose
// smaps_rollup we may not read (another user's, without ptrace rights)
// counts with its VmRSS instead, an upper bound.
func (t *tracker) treeMemory(r *procReader) uint64 {
	total := processMemory(r, t.target.PID)
	for pid := range t.members {
		total += processMemory(r, pid)
	}
	return total
}

// processMemory is one process's Pss, its VmRSS when Pss is not readable,
// or zero when it is gone.
func processMemory(r *procReader, pid int) uint64 {
	pss, err := r.kb(pid, "smaps_rollup", "Pss:")
	if err == syscall.EACCES || err == syscall.EPERM {
		pss, err = r.kb(pid, "status", "VmRSS:")
	}
	if err != nil {
		return 0
	}
	return pss
}
