package sampler

import (
	"syscall"
	"time"
	"unsafe"
)

// Linux clock ids that package syscall does not name.
const (
	clockThreadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID
	clockMonotonicCoarse = 6 // CLOCK_MONOTONIC_COARSE
	cpuClockSched        = 2 // CPUCLOCK_SCHED: the scheduler's runtime, user plus system
	cpuClockPIDShift     = 3 // a CPU clock id holds ^pid above 3 flag bits
)

// threadCPU returns the CPU time, user plus system, the calling OS thread
// has used. The caller must be locked to its thread. It asks
// clock_gettime rather than getrusage(RUSAGE_THREAD), which only advances
// at scheduler ticks and context switches.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if clockGet(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, &ts) != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}

// processCPU returns the CPU time, user plus system, process pid has used,
// in nanoseconds: the clock clock_getcpuclockid(3) names, which any process
// may read for any other. The kernel computes it as the sum of every live
// thread's sum_exec_runtime (the figure /proc/<pid>/task/*/schedstat
// shows) plus the runtime of the threads that have exited, added to the
// process as each one exits: no tick counters to combine, nothing counted
// twice, and it never goes back. /proc/<pid>/stat derives its utime and
// stime from the same runtime but truncates them to 10 ms ticks, too coarse
// for a process that spends a few ms in a run.
//
// A thread on a CPU at the moment of the call has its time counted only up
// to the last scheduler tick or context switch (behindBound).
func processCPU(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, syscall.EINVAL // clock pid 0 would be the caller itself
	}
	var ts syscall.Timespec
	clock := uintptr(^int32(pid)<<cpuClockPIDShift | cpuClockSched)
	if errno := clockGet(syscall.SYS_CLOCK_GETTIME, clock, &ts); errno != 0 {
		return 0, errno
	}
	return time.Duration(ts.Nano()), nil
}

// schedulerTick returns the kernel's tick (1/CONFIG_HZ, 1 to 10 ms): the
// coarse clocks advance once per tick, so that is their resolution. It is
// the longest a running thread's CPU time goes uncounted.
func schedulerTick() time.Duration {
	var ts syscall.Timespec
	if clockGet(syscall.SYS_CLOCK_GETRES, clockMonotonicCoarse, &ts) != 0 || ts.Nano() <= 0 {
		return time.Second / 100 // the longest tick Linux has
	}
	return time.Duration(ts.Nano())
}

// clockGet makes a clock_gettime or clock_getres call. Both are short and
// never block, so the raw call skips the scheduler's bookkeeping.
func clockGet(trap, clock uintptr, ts *syscall.Timespec) syscall.Errno {
	_, _, errno := syscall.RawSyscall(trap, clock, uintptr(unsafe.Pointer(ts)), 0)
	return errno
}
