package sampler

import (
	"syscall"
	"time"
)

// tracker holds one target's state between samples. Only the sampling
// goroutine touches it.
type tracker struct {
	target Target

	// startTime is the root's start time once seen: a different value
	// later means the pid now belongs to another process.
	startTime uint64
	seen      bool

	// members are the root's known descendants (tree targets) by pid.
	members map[int]procStat
	// rss is the tree's last Pss total, carried between refreshes.
	rss uint64

	samples []Sample
	misses  []time.Time
}

// sample reads the target once at time now and records a Sample or a miss.
func (t *tracker) sample(r *procReader, now time.Time, full bool, children map[int][]procStat) {
	root, err := r.stat(t.target.PID)
	if err != nil || (t.seen && root.startTime != t.startTime) {
		t.miss(now)
		return
	}
	t.seen, t.startTime = true, root.startTime

	if !t.target.Tree {
		rss, err := r.kb(t.target.PID, "status", "VmRSS:")
		if err != nil {
			t.miss(now)
			return
		}
		t.samples = append(t.samples, Sample{At: now, CPUTicks: root.ownTicks(), RSSBytes: rss})
		return
	}

	if full && children != nil {
		t.refreshMembers(children)
	}
	// Every process counts its own time plus its reaped children's: when a
	// backend exits, its time moves into its parent's cutime, so the total
	// stays continuous whoever reaps whom.
	ticks := root.ownTicks() + root.childTicks()
	for pid, known := range t.members {
		p := known
		if !full || children == nil {
			if p, err = r.stat(pid); err != nil || p.startTime != known.startTime || !t.inTree(p.ppid) {
				delete(t.members, pid) // exited (its time is in cutime) or left the tree
				continue
			}
			t.members[pid] = p
		}
		ticks += p.ownTicks() + p.childTicks()
	}
	if full || len(t.samples) == 0 {
		t.rss = t.treeMemory(r)
	}
	t.samples = append(t.samples, Sample{At: now, CPUTicks: ticks, RSSBytes: t.rss})
}

// miss records that the target could not be read at time now.
func (t *tracker) miss(now time.Time) {
	t.misses = append(t.misses, now)
	clear(t.members)
}

// inTree reports whether pid is the root or a known member.
func (t *tracker) inTree(pid int) bool {
	_, ok := t.members[pid]
	return ok || pid == t.target.PID
}

// refreshMembers replaces the members with the root's descendants, found
// breadth-first in a fresh /proc listing.
func (t *tracker) refreshMembers(children map[int][]procStat) {
	if t.members == nil {
		t.members = make(map[int]procStat)
	}
	clear(t.members)
	queue := []int{t.target.PID}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if c.pid == t.target.PID {
				continue
			}
			if _, dup := t.members[c.pid]; dup {
				continue
			}
			t.members[c.pid] = c
			queue = append(queue, c.pid)
		}
	}
}

// treeMemory sums the Pss of the root and its members. A process whose
// smaps_rollup we may not read (another user's, without ptrace rights)
// counts with its VmRSS instead, an upper bound.
func (t *tracker) treeMemory(r *procReader) uint64 {
	var total uint64
	t.addMemory(r, t.target.PID, &total)
	for pid := range t.members {
		t.addMemory(r, pid, &total)
	}
	return total
}

func (t *tracker) addMemory(r *procReader, pid int, total *uint64) {
	pss, err := r.kb(pid, "smaps_rollup", "Pss:")
	if err == syscall.EACCES || err == syscall.EPERM {
		pss, err = r.kb(pid, "status", "VmRSS:")
	}
	if err == nil {
		*total += pss
	}
}
