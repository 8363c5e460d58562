package capacity

import (
	"math"
	"strconv"
	"time"

	"crudbench/bench/results"
)

// Met judges p against the SLO of cfg (results.SLO.Judge, the one rule of
// every capacity), and sets p.Met and p.Why. Why names every part of the
// SLO that p missed, with its numbers, so a reader sees whether a probe
// missed by a hair or by a queue.
func Met(cfg Config, p *results.Probe) bool {
	j := cfg.SLO.JudgeProbe(*p)
	p.Met, p.Why = j.Met, j.Why
	return p.Met
}

// msOf is d in milliseconds, the unit of a Probe's latencies.
func msOf(d time.Duration) float64 {
	return float64(d) / float64(time.Millisecond)
}

// decimals writes v with at most n decimals and no trailing zeros.
func decimals(v float64, n int) string {
	scale := math.Pow(10, float64(n))
	return strconv.FormatFloat(math.Round(v*scale)/scale, 'f', -1, 64)
}

// percent writes a ratio as a percentage with at most two decimals:
// 0.9941 is "99.41%", 0.999 is "99.9%".
func percent(ratio float64) string {
	return decimals(ratio*100, 2) + "%"
}
