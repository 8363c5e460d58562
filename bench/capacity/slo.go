package capacity

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"crudbench/bench/results"
)

// Met judges p against the SLO of cfg, and sets p.Met and p.Why. Why names
// every part of the SLO that p missed, with its numbers, so a reader sees
// whether a probe missed by a hair or by a queue.
func Met(cfg Config, p *results.Probe) bool {
	var why []string
	if slo := msOf(cfg.SLOP99); p.P99 > slo {
		why = append(why, fmt.Sprintf("p99 %s ms over the %s ms SLO", decimals(p.P99, 1), decimals(slo, 1)))
	}
	if p.SuccessRatio < cfg.MinSuccessRatio {
		why = append(why, fmt.Sprintf("success %s under %s", percent(p.SuccessRatio), percent(cfg.MinSuccessRatio)))
	}
	if p.Throughput < cfg.MinThroughputShare*p.Rate {
		why = append(why, fmt.Sprintf("throughput %s req/s under %s of %s req/s",
			decimals(p.Throughput, 1), percent(cfg.MinThroughputShare), decimals(p.Rate, 1)))
	}
	p.Met = len(why) == 0
	p.Why = strings.Join(why, "; ")
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
