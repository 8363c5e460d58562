package report

import "math"

// scale maps values of one chart axis to pixels, linearly from zero or
// logarithmically when the values span more than logSpan: rates from 10 to
// 5000 req/s or latencies from 2 ms to 3 s stay readable on one chart.
type scale struct {
	lo, hi  float64 // the values at the axis ends
	p0, p1  float64 // their pixels
	log     bool
	linStep float64 // tick step of a linear scale
}

// logSpan is the ratio of the largest to the smallest value beyond which
// an axis goes logarithmic.
const logSpan = 20

// newScale covers the positive values least..most on pixels p0..p1.
func newScale(least, most, p0, p1 float64) scale {
	if least > 0 && most/least > logSpan {
		return scale{lo: math.Pow(10, math.Floor(math.Log10(least))), hi: math.Pow(10, math.Ceil(math.Log10(most))), p0: p0, p1: p1, log: true}
	}
	// Headroom, so the highest line is not drawn on the frame.
	top, step := niceScale(most * 1.1)
	return scale{lo: 0, hi: top, p0: p0, p1: p1, linStep: step}
}

// at is the pixel of v; values under a log scale's bottom sit on it.
func (s scale) at(v float64) float64 {
	f := (v - s.lo) / (s.hi - s.lo)
	if s.log {
		f = (math.Log10(math.Max(v, s.lo)) - math.Log10(s.lo)) / (math.Log10(s.hi) - math.Log10(s.lo))
	}
	return s.p0 + f*(s.p1-s.p0)
}

// ticks are the values to label: 1, 2, 5 per decade on a log scale (1 only
// beyond two decades), the nice steps on a linear one.
func (s scale) ticks() []float64 {
	var ts []float64
	if !s.log {
		for v := 0.0; v <= s.hi+s.linStep/2; v += s.linStep {
			ts = append(ts, v)
		}
		return ts
	}
	mult := []float64{1, 2, 5}
	if s.hi/s.lo > 100 {
		mult = []float64{1}
	}
	for d := s.lo; d < s.hi*1.001; d *= 10 {
		for _, m := range mult {
			if v := d * m; v <= s.hi*1.001 {
				ts = append(ts, v)
			}
		}
	}
	return ts
}
