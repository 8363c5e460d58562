//go:build !linux

package sampler

import "time"

// threadCPU reports no cost: without Linux's /proc the sampler reads
// nothing, and there is no portable per-thread CPU clock to ask.
func threadCPU() time.Duration { return 0 }
