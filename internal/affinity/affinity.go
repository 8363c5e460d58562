// Package affinity starts child processes on a set of CPUs. It serves
// both db (pgtemp's PostgreSQL server) and bench (the broker), which is
// why it sits under neither: db may not import bench.
package affinity

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Start starts cmd, on cpus unless that is empty, from a goroutine locked
// to its OS thread, and keeps that thread as long as the process runs: the
// parent-death signal fires when the forking thread exits, not the
// process. It returns once cmd has started or failed to; after a start,
// exited is called, on that goroutine, with what cmd.Wait returns. what
// names the process in errors, as for OnCPUs.
func Start(what string, cmd *exec.Cmd, cpus []int, exited func(error)) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		var err error
		restored := true
		if len(cpus) == 0 {
			err = cmd.Start()
		} else {
			restored, err = OnCPUs(what, cpus, cmd.Start)
		}
		if restored {
			defer runtime.UnlockOSThread()
		}
		if err != nil {
			started <- err
			return
		}
		started <- nil
		exited(cmd.Wait())
	}()
	return <-started
}

// OnCPUs runs start with the calling OS thread restricted to cpus, so
// that the process it forks inherits them (and, from it, every process
// it starts), and gives the thread its own mask back afterwards. The
// caller has locked its goroutine to the thread; when restored is false
// it keeps it locked until the goroutine exits, so that the thread ends
// with it instead of running the caller's other goroutines on cpus.
// what names the process in errors ("server", "broker").
func OnCPUs(what string, cpus []int, start func() error) (restored bool, err error) {
	var want, own unix.CPUSet
	for _, c := range cpus {
		if want.Set(c); !want.IsSet(c) {
			return true, fmt.Errorf("set the %s's CPUs: CPU %d is out of range", what, c)
		}
	}
	if err := unix.SchedGetaffinity(0, &own); err != nil {
		return true, fmt.Errorf("read the CPU affinity: %w", err)
	}
	if err := unix.SchedSetaffinity(0, &want); err != nil {
		return false, fmt.Errorf("set the %s's CPUs to %v: %w", what, cpus, err)
	}
	err = start()
	return unix.SchedSetaffinity(0, &own) == nil, err
}
