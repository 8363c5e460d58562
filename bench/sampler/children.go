package sampler

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// childLister returns the pids of a process's children.
type childLister func(p procStat) ([]int, error)

// childrenFromTask lists p's children from /proc/<pid>/task/<tid>/children,
// one file per thread, since a child belongs to the thread that forked
// it. A single-threaded process (a PostgreSQL backend) costs one read; a
// tree of N processes costs about N reads, however many processes the
// machine runs.
func (r *procReader) childrenFromTask(p procStat) ([]int, error) {
	tids := []string{strconv.Itoa(p.pid)}
	if p.threads != 1 {
		d, err := os.Open("/proc/" + tids[0] + "/task")
		if err != nil {
			return nil, err
		}
		tids, err = d.Readdirnames(-1)
		d.Close()
		if err != nil {
			return nil, err
		}
	}
	var pids []int
	for _, tid := range tids {
		b, err := r.read(p.pid, "task/"+tid+"/children")
		if err != nil {
			if len(tids) > 1 && errors.Is(err, syscall.ENOENT) {
				continue // the thread ended since the listing
			}
			return nil, err
		}
		for _, f := range bytes.Fields(b) {
			if pid, err := strconv.Atoi(string(f)); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids, nil
}

// childrenFromScan reads the stat of every process in /proc once and
// returns a lister over that snapshot. It is the fallback for kernels built
// without CONFIG_PROC_CHILDREN, and costs a read per process on the machine.
func (r *procReader) childrenFromScan() (childLister, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	byParent := make(map[int][]int)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue // not a process: "self", "meminfo", ...
		}
		p, err := r.stat(pid)
		if err != nil {
			continue // vanished since the listing: not ours to sample
		}
		byParent[p.ppid] = append(byParent[p.ppid], pid)
	}
	return func(p procStat) ([]int, error) { return byParent[p.pid], nil }, nil
}

// lister returns the cheapest way to list children that works here, and
// root's children found on the way.
func (r *procReader) lister(root procStat) (childLister, []int, error) {
	kids, err := r.childrenFromTask(root)
	if err == nil {
		return r.childrenFromTask, kids, nil
	}
	if !errors.Is(err, syscall.ENOENT) {
		return nil, nil, err
	}
	// The root's stat was just read, so a missing children file means the
	// kernel has none (or the root exited a moment ago: one wasted scan).
	scan, err := r.childrenFromScan()
	if err != nil {
		return nil, nil, err
	}
	kids, err = scan(root)
	return scan, kids, err
}

// ChildrenOf lists the processes pid has forked and not yet reaped, the
// way a tree target finds them: from its threads' children files, or a
// scan of /proc on kernels without them.
func ChildrenOf(pid int) ([]int, error) {
	var r procReader
	p, err := r.stat(pid)
	if err != nil {
		return nil, err
	}
	_, kids, err := r.lister(p)
	return kids, err
}
