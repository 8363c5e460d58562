package sampler

import (
	"bytes"
	"fmt"
	"strconv"
	"syscall"
	"time"
)

// ClockTicksPerSecond is the unit of the CPU times in /proc/<pid>/stat
// (USER_HZ). Linux reports 100 on every architecture Go supports, so the
// sampler uses the constant rather than calling sysconf through cgo. The
// sampler reads a process's own CPU time from its CPU clock in nanoseconds;
// only the time of reaped children comes in these ticks.
const ClockTicksPerSecond = 100

// procStat holds the fields of /proc/<pid>/stat the sampler uses.
type procStat struct {
	pid       int
	ppid      int
	cutime    uint64 // field 16: waited-for children, including theirs, in clock ticks
	cstime    uint64 // field 17
	threads   int    // field 20
	startTime uint64 // field 22: tells a process from a later one with the same pid
}

// childTicks is the CPU time of the children the process has reaped.
func (p procStat) childTicks() uint64 { return p.cutime + p.cstime }

// ticksDuration converts clock ticks to a duration.
func ticksDuration(ticks uint64) time.Duration {
	return time.Duration(ticks) * (time.Second / ClockTicksPerSecond)
}

// parseStat parses one /proc/<pid>/stat line (see proc(5)). The command
// name sits in parentheses and may itself contain spaces and ')' (any
// process can name itself so), so the numeric fields are read after the
// last ')'.
func parseStat(b []byte) (procStat, error) {
	open, closing, ok := commBounds(b)
	if !ok {
		return procStat{}, fmt.Errorf("stat: no (comm) in %q", b)
	}
	var p procStat
	var err error
	if p.pid, err = strconv.Atoi(string(bytes.TrimSpace(b[:open]))); err != nil {
		return procStat{}, fmt.Errorf("stat: pid: %w", err)
	}

	// Fields after ')' start with field 3 (state), so field n is at n-3.
	f := bytes.Fields(b[closing+1:])
	if len(f) < 22-3+1 {
		return procStat{}, fmt.Errorf("stat: %d fields after comm, want at least 20", len(f))
	}
	if p.ppid, err = strconv.Atoi(string(f[4-3])); err != nil {
		return procStat{}, fmt.Errorf("stat: ppid: %w", err)
	}
	if p.threads, err = strconv.Atoi(string(f[20-3])); err != nil {
		return procStat{}, fmt.Errorf("stat: num_threads: %w", err)
	}
	for _, v := range []struct {
		field int
		dst   *uint64
	}{{16, &p.cutime}, {17, &p.cstime}, {22, &p.startTime}} {
		if *v.dst, err = strconv.ParseUint(string(f[v.field-3]), 10, 64); err != nil {
			return procStat{}, fmt.Errorf("stat: field %d: %w", v.field, err)
		}
	}
	return p, nil
}

// commBounds returns the positions of the parentheses around the command
// name of a /proc/<pid>/stat line.
func commBounds(b []byte) (open, closing int, ok bool) {
	open, closing = bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	return open, closing, open >= 0 && closing > open
}

// CommAndParent returns the command name and the parent's pid of process
// pid, from /proc/<pid>/stat.
func CommAndParent(pid int) (comm string, ppid int, err error) {
	var r procReader
	b, err := r.read(pid, "stat")
	if err != nil {
		return "", 0, err
	}
	p, err := parseStat(b)
	if err != nil {
		return "", 0, err
	}
	open, closing, _ := commBounds(b)
	return string(b[open+1 : closing]), p.ppid, nil
}

// ResidentBytes returns the resident memory (VmRSS) of process pid.
func ResidentBytes(pid int) (uint64, error) {
	var r procReader
	return r.kb(pid, "status", "VmRSS:")
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

// open opens /proc/<pid>/<name>, or /proc/<name> for pid 0 (no process
// has it): the machine's files. It goes straight to the system call:
// os.Open would also try to register the file with the network poller, a
// wasted call per file.
func (r *procReader) open(pid int, name string) (int, error) {
	r.path = append(r.path[:0], "/proc/"...)
	if pid != 0 {
		r.path = strconv.AppendInt(r.path, int64(pid), 10)
		r.path = append(r.path, '/')
	}
	r.path = append(r.path, name...)
	for {
		fd, err := syscall.Open(string(r.path), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// readFrom0 reads an open /proc file from offset 0, which makes the kernel
// generate its content afresh. The result is valid until the next read.
// The files the sampler reads are generated whole on a read from offset 0,
// so a short read is the end of the file: no second call to see zero.
func (r *procReader) readFrom0(fd int) ([]byte, error) {
	if r.buf == nil {
		r.buf = make([]byte, 4096)
	}
	n := 0
	for {
		if n == len(r.buf) {
			r.buf = append(r.buf, make([]byte, len(r.buf))...)
		}
		m, err := syscall.Pread(fd, r.buf[n:], int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		n += m
		if m == 0 || n < len(r.buf) {
			return r.buf[:n], nil
		}
	}
}

// read opens, reads and closes /proc/<pid>/<name>, for files read once
// or rarely.
func (r *procReader) read(pid int, name string) ([]byte, error) {
	fd, err := r.open(pid, name)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	return r.readFrom0(fd)
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

// procFile is /proc/<pid>/<name> held open between samples. Reading it
// again from offset 0 costs one system call instead of three, and the open
// file stays bound to the process it was opened for: once that process is
// gone, reads fail (ESRCH) even if its pid number is reused.
type procFile struct {
	pid    int
	name   string
	fd     int
	isOpen bool
}

// read returns the file's current content, opening it first if needed.
// A failed read closes the file; the next read opens it again.
func (f *procFile) read(r *procReader) ([]byte, error) {
	if !f.isOpen {
		fd, err := r.open(f.pid, f.name)
		if err != nil {
			return nil, err
		}
		f.fd, f.isOpen = fd, true
	}
	b, err := r.readFrom0(f.fd)
	if err != nil {
		f.close()
	}
	return b, err
}

// close releases the file descriptor, if any.
func (f *procFile) close() {
	if f.isOpen {
		syscall.Close(f.fd)
		f.isOpen = false
	}
}
