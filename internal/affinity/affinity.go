// Package affinity starts child processes on a set of CPUs. It serves
// both db (pgtemp's PostgreSQL server) and bench (the broker), which is
// why it sits under neither: db may not import bench.
package affinity

import (
	"fmt"

	"golang.org/x/sys/unix"
)

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
