package load

import (
	"time"

	"crudbench/bench/results"
)

// Record copies the figures of the measured window into res, keeping the
// errors res already holds after the window's own. The runner records an
// attack's window with it and bench merge a merged window, so that a
// merged result reads as one runner's.
func (s Summary) Record(res *results.Result) {
	res.AchievedRate = s.AchievedRate
	res.Throughput = s.Throughput
	res.Requests = s.Requests
	res.SuccessRatio = s.SuccessRatio
	res.StatusCodes = s.StatusCodes
	res.Errors = append(s.Errors, res.Errors...)
	res.Latency = results.Latency{
		Mean: ms(s.LatencyMean), P50: ms(s.P50), P90: ms(s.P90), P95: ms(s.P95), P99: ms(s.P99), Max: ms(s.LatencyMax),
	}
	res.BytesIn, res.BytesOut = s.BytesInMean, s.BytesOutMean
	res.Timeline = make([]results.Second, len(s.Timeline))
	for i, sec := range s.Timeline {
		res.Timeline[i] = results.Second{
			At: sec.At.Seconds(), Requests: sec.Requests, Successes: sec.Successes, P50: ms(sec.P50), P99: ms(sec.P99),
		}
	}
}

// ms is d in the milliseconds of results.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
