package report

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"crudbench/bench/results"
)

// Charts are drawn here as inline SVG so report.html needs no script, no
// library and no network. Every label goes through template.HTMLEscapeString
// before it reaches the markup.

// appPalette colours the apps, in layout order, the same in every chart.
var appPalette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"}

// percentileColors shade p50, p90 and p99 from light to dark.
var percentileColors = [3]string{"#9ecae1", "#4292c6", "#08306b"}

func (l layout) color(app string) string {
	for i, a := range l.apps {
		if a == app {
			return appPalette[i%len(appPalette)]
		}
	}
	return "#888888"
}

type svg struct{ b strings.Builder }

func coord(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func esc(s string) string { return template.HTMLEscapeString(s) }

func newSVG(w, h float64, label string) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg class="chart" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-label="%s">`,
		coord(w), coord(h), coord(w), coord(h), esc(label))
	return s
}

// rect draws a bar; tip shows on hover, without any script.
func (s *svg) rect(x, y, w, h float64, fill, tip string) {
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`,
		coord(x), coord(y), coord(max(w, 0)), coord(max(h, 0)), fill, esc(tip))
}

func (s *svg) line(x1, y1, x2, y2 float64, class string) {
	fmt.Fprintf(&s.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="%s"/>`, coord(x1), coord(y1), coord(x2), coord(y2), class)
}

// text writes a label; anchor is start, middle or end.
func (s *svg) text(x, y float64, anchor, class, t string) {
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" text-anchor="%s" class="%s">%s</text>`, coord(x), coord(y), anchor, class, esc(t))
}

// path draws a line through pts, dashed when dash is set.
func (s *svg) path(pts []point, stroke, dash, tip string) {
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(coord(p.x) + "," + coord(p.y))
	}
	d := ""
	if dash != "" {
		d = ` stroke-dasharray="` + dash + `"`
	}
	fmt.Fprintf(&s.b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"%s><title>%s</title></polyline>`, b.String(), stroke, d, esc(tip))
}

// marker draws a dot at a point that held its rate and a cross at one
// that did not.
func (s *svg) marker(p point, color string, held bool, tip string) {
	if held {
		fmt.Fprintf(&s.b, `<circle cx="%s" cy="%s" r="3" fill="%s"><title>%s</title></circle>`, coord(p.x), coord(p.y), color, esc(tip))
		return
	}
	fmt.Fprintf(&s.b, `<path d="M%s %sl8 8m0 -8l-8 8" stroke="%s" stroke-width="2"><title>%s</title></path>`,
		coord(p.x-4), coord(p.y-4), color, esc(tip))
}

func (s *svg) html() template.HTML {
	// Every piece of text in s went through esc, so the markup is safe.
	return template.HTML(s.b.String() + "</svg>")
}

// niceScale returns a round top for an axis reaching at least v and the
// step between its ticks (about four of them).
func niceScale(v float64) (top, step float64) {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1, 0.25
	}
	raw := v / 4
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if step = m * mag; step >= raw {
			break
		}
	}
	return math.Ceil(v/step-1e-9) * step, step
}

// tickText prints an axis tick without trailing noise, thousands as k:
// 0.5, 20, 2.5k, 10k.
func tickText(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'g', 4, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// latencyChart draws p50, p90 and p99 of each app of one scenario as
// grouped bars.
func latencyChart(l layout, group []*results.Result) template.HTML {
	const w, h, left, right, top, bottom = 340.0, 220.0, 46.0, 8.0, 30.0, 34.0
	title := group[0].Scenario
	if t := group[0].TargetRate; t > 0 {
		title += " at " + rateText(t) + " req/s"
	}
	title += ", ms"
	s := newSVG(w, h, "latency percentiles of "+title)
	s.text(4, 14, "start", "title", title)
	for i, name := range []string{"p50", "p90", "p99"} {
		x := w - right - float64(3-i)*42
		s.rect(x, 5, 10, 10, percentileColors[i], name)
		s.text(x+13, 14, "start", "small", name)
	}
	plotW, plotH := w-left-right, h-top-bottom
	maxV := 0.0
	for _, r := range group {
		if hasRequests(r) {
			maxV = max(maxV, r.Latency.P99)
		}
	}
	axisTop, step := niceScale(maxV)
	for v := 0.0; v <= axisTop+step/2; v += step {
		y := top + plotH - v/axisTop*plotH
		s.line(left, y, w-right, y, "grid")
		s.text(left-4, y+4, "end", "small", tickText(v))
	}
	gw := plotW / float64(len(group))
	bw := gw * 0.8 / 3
	for i, r := range group {
		x0 := left + float64(i)*gw + gw*0.1
		s.text(x0+gw*0.4, h-bottom+15, "middle", "label", r.App)
		if !hasRequests(r) {
			s.text(x0+gw*0.4, top+plotH-6, "middle", "muted", notMeasured(r))
			continue
		}
		for k, v := range []float64{r.Latency.P50, r.Latency.P90, r.Latency.P99} {
			bh := v / axisTop * plotH
			s.rect(x0+float64(k)*bw, top+plotH-bh, bw-1, bh, percentileColors[k],
				fmt.Sprintf("%s %s: %s ms", r.App, []string{"p50", "p90", "p99"}[k], human(v)))
		}
		// The p99 value in figures: a bar next to a saturated app's can be
		// too short to read.
		// A run that did not hold its rate says so: its bars are a queue.
		label := human(r.Latency.P99)
		if !r.HeldRate() {
			label += " queued"
		}
		s.text(x0+2.5*bw, top+plotH-r.Latency.P99/axisTop*plotH-3, "middle", "small", label)
	}
	s.line(left, top+plotH, w-right, top+plotH, "axis")
	return s.html()
}

// notMeasured is the short label a chart shows in place of a bar.
func notMeasured(r *results.Result) string {
	if r.Measured() {
		return na
	}
	return r.Verdict
}

// hbar is one row of a horizontal bar chart.
type hbar struct {
	label string
	value float64
	ok    bool   // false: no bar, the text says why
	text  string // printed after the bar
	color string
	// gap puts space before the row, between scenarios.
	gap bool
}

// hbarChart draws one bar per row against a shared axis, with optional
// reference lines (the 95% and 100% marks of throughput).
func hbarChart(title, axisUnit string, rows []hbar, refs []float64, minTop float64) template.HTML {
	const w, labelW, valueW, top, rowH, gapH, bottom = 560.0, 150.0, 130.0, 30.0, 18.0, 8.0, 24.0
	h := top + bottom
	for _, r := range rows {
		h += rowH
		if r.gap {
			h += gapH
		}
	}
	s := newSVG(w, h, title)
	s.text(4, 14, "start", "title", title)
	maxV := minTop
	for _, r := range rows {
		if r.ok {
			maxV = max(maxV, r.value)
		}
	}
	axisTop, step := niceScale(maxV)
	plotW := w - labelW - valueW
	x := func(v float64) float64 { return labelW + v/axisTop*plotW }
	bottomY := h - bottom
	for v := 0.0; v <= axisTop+step/2; v += step {
		s.line(x(v), top-4, x(v), bottomY, "grid")
		s.text(x(v), bottomY+14, "middle", "small", tickText(v))
	}
	s.text(w-valueW+24, bottomY+14, "start", "small", axisUnit)
	for i, ref := range refs {
		s.line(x(ref), top-4, x(ref), bottomY, "ref")
		// Close marks (95 and 100) label outwards so they do not collide.
		anchor, dx := "end", -2.0
		if i == len(refs)-1 {
			anchor, dx = "start", 2
		}
		s.text(x(ref)+dx, top-6, anchor, "small", tickText(ref))
	}
	y := top
	for _, r := range rows {
		if r.gap {
			y += gapH
		}
		s.text(labelW-6, y+rowH-5, "end", "label", r.label)
		if r.ok {
			bw := r.value / axisTop * plotW
			s.rect(labelW, y+2, bw, rowH-4, r.color, r.label+": "+r.text)
			s.text(labelW+bw+4, y+rowH-5, "start", "small", r.text)
		} else {
			s.text(labelW+4, y+rowH-5, "start", "muted", r.text)
		}
		y += rowH
	}
	s.line(labelW, top-4, labelW, bottomY, "axis")
	return s.html()
}

// profileBars builds the rows of one profile's bar charts; value says
// whether a result has the number and what it is.
func profileBars(l layout, rs []*results.Result, value func(*results.Result) (v float64, text string, ok bool)) []hbar {
	var rows []hbar
	for i, r := range rs {
		row := hbar{label: r.Scenario + " · " + r.App, color: l.color(r.App), gap: i > 0 && rs[i-1].Scenario != r.Scenario}
		if v, text, ok := value(r); ok {
			row.value, row.text, row.ok = v, text, true
		} else if r.Measured() {
			row.text = na
		} else {
			row.text = na + " (" + r.Verdict + ")"
		}
		rows = append(rows, row)
	}
	return rows
}

// series is one line of a line chart.
type series struct {
	name, color string
	points      []point
}

// lineChart draws values over time, one line per app.
func lineChart(title, yUnit string, lines []series) template.HTML {
	const w, h, left, right, top, bottom = 560.0, 200.0, 50.0, 10.0, 30.0, 30.0
	s := newSVG(w, h, title)
	s.text(4, 14, "start", "title", title)
	lx := w - right
	for i := len(lines) - 1; i >= 0; i-- {
		lx -= 8 + 7*float64(len(lines[i].name)) + 16
		s.rect(lx, 8, 12, 4, lines[i].color, lines[i].name)
		s.text(lx+16, 14, "start", "small", lines[i].name)
	}
	maxX, maxY := 0.0, 0.0
	for _, ln := range lines {
		for _, p := range ln.points {
			maxX, maxY = max(maxX, p.x), max(maxY, p.y)
		}
	}
	xTop, xStep := niceScale(maxX)
	yTop, yStep := niceScale(maxY)
	plotW, plotH := w-left-right, h-top-bottom
	px := func(p point) point {
		return point{left + p.x/xTop*plotW, top + plotH - p.y/yTop*plotH}
	}
	for v := 0.0; v <= yTop+yStep/2; v += yStep {
		y := top + plotH - v/yTop*plotH
		s.line(left, y, w-right, y, "grid")
		s.text(left-4, y+4, "end", "small", tickText(v))
	}
	for v := 0.0; v <= xTop+xStep/2; v += xStep {
		x := left + v/xTop*plotW
		s.line(x, top+plotH, x, top+plotH+4, "axis")
		s.text(x, top+plotH+16, "middle", "small", tickText(v))
	}
	s.text(w-right, top+plotH+28, "end", "small", "seconds since sampling started")
	s.text(4, top-6, "start", "small", yUnit)
	s.line(left, top+plotH, w-right, top+plotH, "axis")
	for _, ln := range lines {
		pts := make([]point, len(ln.points))
		for i, p := range ln.points {
			pts[i] = px(p)
		}
		s.path(pts, ln.color, "", ln.name)
	}
	return s.html()
}
