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
	pid := t.PID
	if t.Machine {
		pid = 0 // /proc/stat: see procReader.open
	}
	return &tracker{
		target:  t,
		stat:    procFile{pid: pid, name: "stat"},
		status:  procFile{pid: t.PID, name: "status"},
		members: make(map[int]*member),
		lag:     lag,
	}
}

// sample reads the target once at time now and records a Sample or a
// miss. p says what a tree reads besides its known members and its root's
// children; the first sample reads everything.
func (t *tracker) sample(r *procReader, now time.Time, p pass) {
	if t.target.Machine {
		t.sampleMachine(r, now)
		return
	}
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

	if len(t.samples) == 0 {
		p = pass{members: true, memory: true}
	}
	if !p.members || !t.refreshMembers(r, root) {
		t.rereadMembers()
		t.adoptChildren(r, root)
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
	if p.memory {
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

// rereadMembers updates the known members' CPU times from their CPU
// clocks alone, and drops those whose clock is gone: they exited, and
// their time is now in their parent's cutime. Their stat — parent,
// threads, reaped children — is read again at the next full listing
// (refreshMembers, every TreeEvery samples): a clock read is a system call
// that generates no file, several times cheaper than a stat read, which
// is what lets PostgreSQL's sixty processes be read ten times a second.
// Between listings a member's reaped children's time is carried from its
// last stat (PostgreSQL's backends reap none: the postmaster, the root,
// reaps them, and its stat is read at every sample).
func (t *tracker) rereadMembers() {
	for pid, m := range t.members {
		cpu, err := processCPU(pid)
		if err != nil {
			m.file.close()
			delete(t.members, pid)
			continue
		}
		m.cpu = cpu
	}
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
			if !m.read(r, parent.pid, known) {
				continue
			}
			found[pid] = m
			queue = append(queue, m.stat)
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

// adoptChildren adds the root's children that are not members yet. It
// reads one file per thread of the root (one for PostgreSQL's
// postmaster); a kernel without the children files leaves new children to
// the next full listing (refreshMembers), which scans /proc instead.
func (t *tracker) adoptChildren(r *procReader, root procStat) {
	kids, err := r.childrenFromTask(root)
	if err != nil {
		return
	}
	for _, pid := range kids {
		if _, known := t.members[pid]; known {
			continue
		}
		m := &member{file: procFile{pid: pid, name: "stat"}}
		if m.read(r, root.pid, false) {
			t.members[pid] = m
		}
	}
}

// read reads the member's stat and CPU clock and reports whether it is
// still parent's child; when not, its file is closed. A held file
// (known) fails once its process is gone, even when the pid has a new
// owner, so a failed read of one is tried once afresh.
func (m *member) read(r *procReader, parent int, known bool) bool {
	p, err := readStat(r, &m.file)
	if err != nil && known {
		p, err = readStat(r, &m.file)
	}
	var cpu time.Duration
	if err == nil {
		cpu, err = processCPU(m.file.pid)
	}
	if err != nil || p.ppid != parent {
		m.file.close()
		return false
	}
	m.stat, m.cpu = p, cpu
	return true
}

// sampleMachine records the machine's busy CPU time (Target.Machine),
// or a miss when /proc/stat cannot be read. A machine target's stat file
// is /proc/stat itself (its PID is 0), held open like a process's. It
// counts in clock ticks per CPU, each truncated: a reading lacks up to a
// tick per CPU.
func (t *tracker) sampleMachine(r *procReader, now time.Time) {
	b, err := t.stat.read(r)
	var m MachineCPU
	if err == nil {
		m, err = parseMachineCPU(b)
	}
	if err != nil {
		t.miss(now)
		return
	}
	t.samples = append(t.samples, Sample{At: now, CPU: ticksDuration(m.Busy), CPUBehind: ticksDuration(uint64(m.CPUs))})
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
