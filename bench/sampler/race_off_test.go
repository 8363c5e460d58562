//go:build !race

package sampler_test

// overheadSane bounds what TestOverhead accepts: far above the design goal
// (under 1% of a core, which BenchmarkSample checks and every report
// flags when a run misses it), far below what a sampling loop that spins
// or reads all of /proc at every tick would use. A machine's load moves the
// measured cost by a fraction; it cannot move it tenfold.
const overheadSane = 0.1
