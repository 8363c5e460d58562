//go:build !race

package sampler_test

// overheadBound is the design goal: well under 1% of a core.
const overheadBound = 0.01
