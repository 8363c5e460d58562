package sampler

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is Linux's CLOCK_THREAD_CPUTIME_ID, which package
// syscall does not name.
const clockThreadCPUTimeID = 3

// threadCPU returns the CPU time, user plus system, the calling OS thread
// has used. The caller must be locked to its thread. It asks
// clock_gettime rather than getrusage(RUSAGE_THREAD), which only advances
// at scheduler ticks and context switches.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
