package report

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"

	"crudbench/bench/results"
)

// loadPoint is one measured rate of one app: a fixed profile's run, a
// capacity probe or a confirmation run.
type loadPoint struct {
	app      string
	rate     float64 // offered, req/s
	p50, p99 float64 // ms
	// held is false for a run that did not keep up: its latencies are a
	// queue's, drawn but marked.
	held   bool
	source string
}

// loadPoints gathers every rate measured on one scenario, by app in layout
// order, each app's points sorted by rate.
func loadPoints(run *results.Run, l layout, scenario string) [][]loadPoint {
	by := map[string][]loadPoint{}
	for i := range run.Results {
		if r := &run.Results[i]; r.Scenario == scenario && hasRequests(r) && r.TargetRate > 0 {
			by[r.App] = append(by[r.App], resultPoint(r, r.Profile))
		}
	}
	// A search's probes and confirmations held their rate or not by the
	// capacity SLO, which judged them.
	slo := run.Settings.CapacitySLO()
	for _, folded := range l.capacitiesOf(run) {
		if folded.Scenario != scenario {
			continue
		}
		for _, c := range folded.Each() {
			for _, p := range c.Probes {
				if p.Rate > 0 && p.Throughput > 0 {
					by[c.App] = append(by[c.App], loadPoint{c.App, p.Rate, p.P50, p.P99, slo.JudgeProbe(p).HeldRate, "capacity probe"})
				}
			}
			for _, r := range c.Runs() {
				if hasRequests(r) && r.TargetRate > 0 {
					pt := resultPoint(r, "capacity confirmation")
					pt.held = slo.JudgeRun(r).HeldRate
					by[c.App] = append(by[c.App], pt)
				}
			}
		}
	}
	var out [][]loadPoint
	for _, a := range l.apps {
		if pts := by[a]; len(pts) > 0 {
			slices.SortStableFunc(pts, func(x, y loadPoint) int { return cmp.Compare(x.rate, y.rate) })
			out = append(out, pts)
		}
	}
	return out
}

func resultPoint(r *results.Result, source string) loadPoint {
	return loadPoint{r.App, r.TargetRate, r.Latency.P50, r.Latency.P99, r.HeldRate(), source}
}

// loadCharts draws one latency-against-load chart per scenario that has a
// measured rate.
func loadCharts(run *results.Run, l layout) []template.HTML {
	var charts []template.HTML
	for _, s := range l.scenarios {
		if pts := loadPoints(run, l, s); len(pts) > 0 {
			charts = append(charts, latencyLoadChart(l, s, pts, sloMs(run)))
		}
	}
	return charts
}

// sloMs is the run's p99 SLO in milliseconds, 0 when it had none.
func sloMs(run *results.Run) float64 { return float64(run.Settings.SLOP99) / 1e6 }

// latencyLoadChart draws p99 (solid) and p50 (dashed) of every app of one
// scenario against the offered rate, with the SLO as a horizontal line and
// the runs that did not hold their rate marked with a cross.
func latencyLoadChart(l layout, scenario string, apps [][]loadPoint, slo float64) template.HTML {
	const w, h, left, right, top, bottom = 560.0, 310.0, 52.0, 14.0, 46.0, 40.0
	title := scenario + ": latency against offered rate"
	s := newSVG(w, h, title)
	s.text(4, 14, "start", "title", title)
	loadLegend(s, l, apps, w-right)
	minX, maxX, minY, maxY := extent(apps)
	if slo > 0 {
		minY, maxY = min(minY, slo), max(maxY, slo)
	}
	x := newScale(minX, maxX, left, w-right)
	y := newScale(minY, maxY, h-bottom, top)
	gridY(s, y, left, w-right)
	gridX(s, x, top, h-bottom)
	s.text(w-right, h-6, "end", "small", "offered rate, req/s"+logNote(x))
	s.text(4, top-6, "start", "small", "ms"+logNote(y))
	if slo > 0 {
		s.line(left, y.at(slo), w-right, y.at(slo), "ref")
		s.text(left+4, y.at(slo)-3, "start", "small", "SLO p99 "+msFigure(slo)+" ms")
	}
	for _, pts := range apps {
		color := l.color(pts[0].app)
		p50, p99 := make([]point, len(pts)), make([]point, len(pts))
		for i, p := range pts {
			p50[i], p99[i] = point{x.at(p.rate), y.at(p.p50)}, point{x.at(p.rate), y.at(p.p99)}
		}
		s.path(p50, color, "4 3", pts[0].app+" p50")
		s.path(p99, color, "", pts[0].app+" p99")
		for i, p := range pts {
			tip := fmt.Sprintf("%s, %s at %s req/s: p50 %s ms, p99 %s ms", p.app, p.source, rateText(p.rate), human(p.p50), human(p.p99))
			if !p.held {
				tip += " (did not hold the rate: queued)"
			}
			s.marker(p99[i], color, p.held, tip)
		}
	}
	s.line(left, h-bottom, w-right, h-bottom, "axis")
	s.line(left, top, left, h-bottom, "axis")
	return s.html()
}

// loadLegend names the apps and the line and marker styles.
func loadLegend(s *svg, l layout, apps [][]loadPoint, right float64) {
	names := make([]string, len(apps))
	for i, pts := range apps {
		names[i] = pts[0].app
	}
	appsLegend(s, l, names, right, "solid p99 · dashed p50 · ● held the rate · ✕ did not (queued)")
}

// appsLegend names each app in its colour, left to right, and says at the
// right what the lines and markers mean.
func appsLegend(s *svg, l layout, names []string, right float64, styles string) {
	x := 4.0
	for _, name := range names {
		s.rect(x, 24, 12, 4, l.color(name), name)
		s.text(x+16, 30, "start", "small", name)
		x += 24 + 6.5*float64(len(name))
	}
	s.text(right, 30, "end", "small", styles)
}

func logNote(s scale) string {
	if s.log {
		return " (log scale)"
	}
	return ""
}

// extent is the smallest and largest positive rate and latency.
func extent(apps [][]loadPoint) (minX, maxX, minY, maxY float64) {
	first := true
	for _, pts := range apps {
		for _, p := range pts {
			for _, v := range []float64{p.p50, p.p99} {
				if v > 0 && (first || v < minY) {
					minY = v
				}
				maxY = max(maxY, v)
				first = false
			}
			if minX == 0 || p.rate < minX {
				minX = p.rate
			}
			maxX = max(maxX, p.rate)
		}
	}
	return minX, maxX, minY, maxY
}

func gridY(s *svg, y scale, x0, x1 float64) {
	for _, v := range y.ticks() {
		s.line(x0, y.at(v), x1, y.at(v), "grid")
		s.text(x0-4, y.at(v)+4, "end", "small", tickText(v))
	}
}

func gridX(s *svg, x scale, y0, y1 float64) {
	for _, v := range x.ticks() {
		s.line(x.at(v), y0, x.at(v), y1, "grid")
		s.text(x.at(v), y1+14, "middle", "small", tickText(v))
	}
}

// timelineCharts draws the per-second latency of each run of rs that has a
// timeline: small multiples, one per run.
func timelineCharts(l layout, rs []*results.Result, slo float64) []template.HTML {
	var charts []template.HTML
	for _, r := range rs {
		if r.Measured() && len(r.Timeline) > 0 {
			charts = append(charts, timelineChart(l, r, slo))
		}
	}
	return charts
}

// timelineChart draws p99 (solid) and p50 (dashed) of one run second by
// second over its measured window: a queue building shows as a p99 that
// climbs instead of staying flat.
func timelineChart(l layout, r *results.Result, slo float64) template.HTML {
	const w, h, left, right, top, bottom = 270.0, 160.0, 40.0, 8.0, 34.0, 28.0
	title := r.Scenario + " · " + r.App
	if r.TargetRate > 0 {
		title += " at " + rateText(r.TargetRate) + " req/s"
	}
	s := newSVG(w, h, "latency per second of "+r.Profile+" · "+title)
	s.text(4, 14, "start", "title", title)
	var minY, maxY, maxX float64
	for _, sec := range r.Timeline {
		for _, v := range []float64{sec.P50, sec.P99} {
			if v > 0 && (minY == 0 || v < minY) {
				minY = v
			}
			maxY = max(maxY, v)
		}
		maxX = max(maxX, sec.At+1)
	}
	xTop, xStep := niceScale(maxX)
	x := scale{lo: 0, hi: xTop, p0: left, p1: w - right, linStep: xStep}
	y := newScale(minY, maxY, h-bottom, top)
	s.text(4, 27, "start", "small", r.Verdict+" · ms"+logNote(y)+": solid p99, dashed p50")
	gridY(s, y, left, w-right)
	for _, v := range x.ticks() {
		s.text(x.at(v), h-bottom+12, "middle", "small", tickText(v))
	}
	s.text(w-right, h-4, "end", "small", "s into the window")
	if slo > 0 && slo <= y.hi && slo >= y.lo {
		s.line(left, y.at(slo), w-right, y.at(slo), "ref")
	}
	var p50, p99 []point
	for _, sec := range r.Timeline {
		if sec.Requests > 0 {
			mid := x.at(sec.At + 0.5)
			p50, p99 = append(p50, point{mid, y.at(sec.P50)}), append(p99, point{mid, y.at(sec.P99)})
		}
	}
	color := l.color(r.App)
	s.path(p50, color, "4 3", r.App+" p50 per second")
	s.path(p99, color, "", r.App+" p99 per second")
	s.line(left, h-bottom, w-right, h-bottom, "axis")
	return s.html()
}
