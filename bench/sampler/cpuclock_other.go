//go:build !linux

package sampler

import (
	"errors"
	"time"
)

// threadCPU reports no cost: without Linux's /proc the sampler reads
// nothing, and there is no portable per-thread CPU clock to ask.
func threadCPU() time.Duration { return 0 }

// processCPU fails: other systems have no clock for another process's CPU
// time that the sampler could read.
func processCPU(int) (time.Duration, error) {
	return 0, errors.New("sampler: no process CPU clock on this system")
}

// schedulerTick is the longest tick Linux has; nothing is read elsewhere.
func schedulerTick() time.Duration { return time.Second / 100 }
