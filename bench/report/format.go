package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"crudbench/bench/results"
)

// na marks a value that was not measured.
const na = "n/a"

// hasRequests reports whether the per-request numbers of r mean anything.
func hasRequests(r *results.Result) bool { return r.Measured() && r.Requests > 0 }

// appCPUPerRequest is available only when the app was visible and something
// succeeded to divide by.
func appCPUPerRequest(r *results.Result) bool {
	return r.Measured() && r.AppCost.Available && r.Throughput > 0
}

// cpuResolved reports whether r's app CPU per request stands above the
// resolution of the readings it comes from, so that it is a measurement
// rather than a number indistinguishable from zero.
func cpuResolved(r *results.Result) bool {
	return r.AppCost.CPUMsPerRequest >= r.AppCost.CPUResolutionMsPerRequest
}

// cpuMsText prints r's app CPU-ms per request. A figure under the
// resolution says so, with the most the true figure can be; a figure above
// it gets the digits it needs so as never to read as 0.00.
func cpuMsText(r *results.Result) string {
	a := r.AppCost
	if !cpuResolved(r) {
		return "below resolution (< " + roundUp(a.CPUMsPerRequest+a.CPUResolutionMsPerRequest) + " ms)"
	}
	return small(a.CPUMsPerRequest)
}

// small prints a value as human does, or with two significant digits when
// human would round it to 0.00: 0.0042.
func small(v float64) string {
	if a := math.Abs(v); a == 0 || a >= 0.005 {
		return human(v)
	}
	return fixed(v, 1-int(math.Floor(math.Log10(math.Abs(v)))))
}

// roundUp prints a positive bound rounded up to two significant digits, so
// that "< x" stays true: 0.0041 for 0.00402.
func roundUp(v float64) string {
	digits := 1 - int(math.Floor(math.Log10(v)))
	scale := math.Pow10(digits)
	return fixed(math.Ceil(v*scale*(1-1e-12))/scale, max(digits, 0))
}

func fixed(v float64, digits int) string { return strconv.FormatFloat(v, 'f', digits, 64) }

// human prints a value with the precision its size deserves: 0.42, 3.21,
// 45.3, 1234.
func human(v float64) string {
	switch a := math.Abs(v); {
	case a < 10:
		return fixed(v, 2)
	case a < 100:
		return fixed(v, 1)
	default:
		return fixed(v, 0)
	}
}

// rateText prints a request rate: targets are usually whole numbers.
func rateText(v float64) string {
	if v == math.Trunc(v) {
		return fixed(v, 0)
	}
	return fixed(v, 1)
}

// percent prints a fraction (1.0 = 100%).
func percent(fraction float64, digits int) string { return fixed(fraction*100, digits) + "%" }

// ratio prints how many times a is b: 2.35×.
func ratio(a, b float64) string {
	switch r := a / b; {
	case r >= 100:
		return fixed(r, 0) + "×"
	case r >= 10:
		return fixed(r, 1) + "×"
	default:
		return fixed(r, 2) + "×"
	}
}

// thousands prints a whole number with thousands separators: 184,320.
func thousands(v float64) string {
	s := fixed(math.Round(v), 0)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// listText joins names as a sentence does (results.ListText, which the
// notes of a run use too).
func listText(items []string) string { return results.ListText(items) }

// verdictText is the verdict with its reason, as the tables show it.
func verdictText(r *results.Result) string {
	v := r.Verdict
	if v == "" {
		v = "unknown"
	}
	reason := r.Reason
	if reason == "" {
		// A file written by hand, or by an older runner, may carry a
		// verdict without its reason: say it in the runner's words.
		reason = r.Explain(0)
	}
	if reason != "" {
		return v + ": " + reason
	}
	return v
}

// poolWaitText is the mean time a request waited for a connection from
// the app's pool, n/a when its metrics were not read.
func poolWaitText(p *results.PoolCost) string {
	if p == nil {
		return na
	}
	return small(p.WaitMsPerRequest)
}

func orNA(s string) string {
	if s == "" {
		return na
	}
	return s
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return na
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func durationText(d results.Duration) string {
	if d == 0 {
		return na
	}
	return time.Duration(d).String()
}

func countText(n int) string {
	if n == 0 {
		return na
	}
	return fmt.Sprint(n)
}
