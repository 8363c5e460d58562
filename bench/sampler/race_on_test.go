//go:build race

package sampler_test

// overheadBound is looser under the race detector, which slows every
// memory access of the sampling loop several times.
const overheadBound = 0.05
