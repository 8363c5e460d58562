package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// SLO is the service level objective a capacity stands on: p99 latency at
// most P99, success at least MinSuccessRatio and successful throughput at
// least MinThroughputShare of the rate. Every judgement of a capacity —
// its probes, its full-length confirmations, the stop reason's "the rate
// was held", the report's colours — is SLO.Judge, so that the figure the
// report quotes passes on the same terms as the probes that found it.
// The fixed profiles' verdicts (Judge on a Result) are another matter: they
// describe what happened at a rate, not a rate to size servers with.
type SLO struct {
	// P99 is the latency objective; zero judges no latency (a version 1
	// file, whose runs were judged on no latency either).
	P99                time.Duration
	MinSuccessRatio    float64
	MinThroughputShare float64
}

// The capacity search's service level besides the p99 (see SLO), its
// one statement: stricter than the fixed profiles' verdict, because a
// capacity is a rate to size servers with, not a description of what
// happened. The search's other constants are package capacity's.
const (
	CapacityMinSuccessRatio    = 0.999
	CapacityMinThroughputShare = 0.99
)

// CapacitySLO is the capacity search's SLO with the p99 objective p99:
// stricter than the fixed profiles' thresholds, because a capacity is a
// rate to size servers with.
func CapacitySLO(p99 time.Duration) SLO {
	return SLO{P99: p99, MinSuccessRatio: CapacityMinSuccessRatio, MinThroughputShare: CapacityMinThroughputShare}
}

// CapacitySLO is the SLO the capacity search of s judged by: its -slo-p99
// and the thresholds it recorded, or the package's for a file that
// recorded none.
func (s Settings) CapacitySLO() SLO {
	slo := CapacitySLO(time.Duration(s.SLOP99))
	if c := s.Capacity; c != nil && c.MinSuccessRatio > 0 && c.MinThroughputShare > 0 {
		slo.MinSuccessRatio, slo.MinThroughputShare = c.MinSuccessRatio, c.MinThroughputShare
	}
	return slo
}

// Judgement is what an SLO said of one constant-rate run.
type Judgement struct {
	// Met says the run met every part of the SLO. HeldRate says it kept
	// up with its rate without losing requests (throughput and success
	// met): only its p99, if anything, missed, and its latencies are the
	// app's rather than a queue's.
	Met, HeldRate bool
	// Why names every part the run missed, with its numbers, so a reader
	// sees whether it missed by a hair or by a queue; empty when Met.
	Why string
}

// Judge judges a run at rate (req/s) that served throughput successful
// responses a second, with success its share of successful requests and
// p99 its p99 latency in milliseconds.
func (s SLO) Judge(rate, throughput, success, p99 float64) Judgement {
	var why []string
	if s.P99 > 0 {
		if slo := float64(s.P99) / float64(time.Millisecond); p99 > slo {
			why = append(why, fmt.Sprintf("p99 %s ms over the %s ms SLO", decimals(p99, 1), decimals(slo, 1)))
		}
	}
	slow := len(why)
	if success < s.MinSuccessRatio {
		why = append(why, fmt.Sprintf("success %s under %s", percentText(success), percentText(s.MinSuccessRatio)))
	}
	if throughput < s.MinThroughputShare*rate {
		why = append(why, fmt.Sprintf("throughput %s req/s under %s of %s req/s",
			decimals(throughput, 1), percentText(s.MinThroughputShare), decimals(rate, 1)))
	}
	return Judgement{Met: len(why) == 0, HeldRate: len(why) == slow, Why: strings.Join(why, "; ")}
}

// JudgeProbe is Judge of a capacity probe.
func (s SLO) JudgeProbe(p Probe) Judgement {
	return s.Judge(p.Rate, p.Throughput, p.SuccessRatio, p.P99)
}

// JudgeRun is Judge of a measured run at its target rate, a capacity's
// confirmation.
func (s SLO) JudgeRun(r *Result) Judgement {
	return s.Judge(r.TargetRate, r.Throughput, r.SuccessRatio, r.Latency.P99)
}

// decimals writes v with at most n decimals and no trailing zeros.
func decimals(v float64, n int) string {
	scale := math.Pow(10, float64(n))
	return strconv.FormatFloat(math.Round(v*scale)/scale, 'f', -1, 64)
}

// percentText writes a ratio as a percentage with at most two decimals:
// 0.9941 is "99.41%", 0.999 is "99.9%".
func percentText(ratio float64) string {
	return decimals(ratio*100, 2) + "%"
}
