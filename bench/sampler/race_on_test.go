//go:build race

package sampler_test

// overheadSane is looser under the race detector, which slows every
// memory access of the sampling loop several times.
const overheadSane = 0.5
