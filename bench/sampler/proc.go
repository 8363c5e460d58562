package sampler

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// ClockTicksPerSecond is the unit of the CPU times in /proc/<pid>/stat
// (USER_HZ). Linux reports 100 on every architecture Go supports, so the
// sampler uses the constant rather than calling sysconf through cgo.
const ClockTicksPerSecond = 100

// procStat holds the fields of /proc/<pid>/stat the sampler uses.
type procStat struct {
	pid       int
	comm      string
	ppid      int
	utime     uint64 // field 14, in clock ticks
	stime     uint64 // field 15
	cutime    uint64 // field 16: waited-for children, including theirs
	cstime    uint64 // field 17
	startTime uint64 // field 22: tells a process from a later one with the same pid
}

// ownTicks is the CPU time of the process itself, all threads included.
func (p procStat) ownTicks() uint64 { return p.utime + p.stime }

// childTicks is the CPU time of the children the process has reaped.
func (p procStat) childTicks() uint64 { return p.cutime + p.cstime }

// parseStat parses one /proc/<pid>/stat line (see proc(5)). The command
// name sits in parentheses and may itself contain spaces and ')', so the
// numeric fields are read after the last ')'.
func parseStat(b []byte) (procStat, error) {
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open {
		return procStat{}, fmt.Errorf("stat: no (comm) in %q", b)
	}
	var p procStat
	var err error
	if p.pid, err = strconv.Atoi(string(bytes.TrimSpace(b[:open]))); err != nil {
		return procStat{}, fmt.Errorf("stat: pid: %w", err)
	}
	p.comm = string(b[open+1 : closing])

	// Fields after ')' start with field 3 (state), so field n is at n-3.
	f := bytes.Fields(b[closing+1:])
	if len(f) < 22-3+1 {
		return procStat{}, fmt.Errorf("stat: %d fields after comm, want at least 20", len(f))
	}
	if p.ppid, err = strconv.Atoi(string(f[4-3])); err != nil {
		return procStat{}, fmt.Errorf("stat: ppid: %w", err)
	}
	for _, v := range []struct {
		field int
		dst   *uint64
	}{{14, &p.utime}, {15, &p.stime}, {16, &p.cutime}, {17, &p.cstime}, {22, &p.startTime}} {
		if *v.dst, err = strconv.ParseUint(string(f[v.field-3]), 10, 64); err != nil {
			return procStat{}, fmt.Errorf("stat: field %d: %w", v.field, err)
		}
	}
	return p, nil
}

// parseKB returns the value of the first line "key: <n> kB" in a
// /proc/<pid>/status or smaps_rollup file, in bytes. key includes the colon
// so that "Pss:" does not match "Pss_Anon:".
func parseKB(b []byte, key string) (uint64, bool) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		rest, ok := bytes.CutPrefix(line, []byte(key))
		if !ok {
			continue
		}
		num, _ := bytes.CutSuffix(bytes.TrimSpace(rest), []byte(" kB"))
		kb, err := strconv.ParseUint(string(bytes.TrimSpace(num)), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

// procReader reads /proc files into one reused buffer. It is not safe for
// concurrent use: only the sampling goroutine owns it.
type procReader struct {
	buf  []byte
	path []byte
}

// read returns the content of /proc/<pid>/<name>, valid until the next
// call. It goes straight to open/read/close: os.Open would also try to
// register the file with the network poller, one wasted syscall per read.
func (r *procReader) read(pid int, name string) ([]byte, error) {
	r.path = append(r.path[:0], "/proc/"...)
	r.path = strconv.AppendInt(r.path, int64(pid), 10)
	r.path = append(r.path, '/')
	r.path = append(r.path, name...)
	fd, err := openRetry(string(r.path))
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if r.buf == nil {
		r.buf = make([]byte, 4096)
	}
	n := 0
	for {
		if n == len(r.buf) {
			r.buf = append(r.buf, make([]byte, len(r.buf))...)
		}
		m, err := syscall.Read(fd, r.buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return r.buf[:n], nil
		}
		n += m
	}
}

func openRetry(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// stat reads and parses /proc/<pid>/stat.
func (r *procReader) stat(pid int) (procStat, error) {
	b, err := r.read(pid, "stat")
	if err != nil {
		return procStat{}, err
	}
	return parseStat(b)
}

// kb reads one "key: n kB" value of /proc/<pid>/<name>. A file without the
// key (a zombie has no VmRSS) counts as zero.
func (r *procReader) kb(pid int, name, key string) (uint64, error) {
	b, err := r.read(pid, name)
	if err != nil {
		return 0, err
	}
	v, _ := parseKB(b, key)
	return v, nil
}

// scanProcs reads the stat of every process in /proc. Processes that vanish
// during the scan are skipped.
func (r *procReader) scanProcs() ([]procStat, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	procs := make([]procStat, 0, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue // not a process: "self", "meminfo", ...
		}
		p, err := r.stat(pid)
		if err != nil {
			continue // vanished, or a stat we cannot read: not ours to sample
		}
		procs = append(procs, p)
	}
	return procs, nil
}
