package report

import (
	"fmt"
	"html/template"
	"strconv"

	"crudbench/bench/results"
)

// layerColors colour the layers of a CPU profile in the order of
// results.Layers, the same in every bar.
var layerColors = map[string]string{
	results.LayerHTTP:     "#4e79a7",
	results.LayerEncoding: "#f28e2b",
	results.LayerDriver:   "#59a14f",
	results.LayerApp:      "#e15759",
	results.LayerRuntime:  "#9c755f",
	results.LayerOther:    "#bab0ac",
}

// profiled is one measured run with a CPU profile, labelled for the report.
type profiled struct {
	label string
	r     *results.Result
}

// profiledRuns are the runs with a CPU profile: the fixed profiles' in
// layout order, then the capacity confirmations.
func profiledRuns(run *results.Run, l layout) []profiled {
	var out []profiled
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			if r.CPUProfile != nil {
				out = append(out, profiled{p + " · " + r.Scenario + " · " + r.App, r})
			}
		}
	}
	for _, c := range l.capacitiesOf(run) {
		if r := c.Confirmation; r != nil && r.CPUProfile != nil {
			out = append(out, profiled{"capacity · " + c.Scenario + " · " + c.App, r})
		}
	}
	return out
}

// layerShare is a layer's share of p, 0 when p does not name it.
func layerShare(p *results.CPUProfile, layer string) float64 {
	for _, s := range p.Layers {
		if s.Layer == layer {
			return s.Share
		}
	}
	return 0
}

// topLayer is the layer with the largest share of p.
func topLayer(p *results.CPUProfile) (string, float64) {
	best, share := "", 0.0
	for _, l := range results.Layers {
		if s := layerShare(p, l); s > share {
			best, share = l, s
		}
	}
	return best, share
}

// layerTable shows each profiled run's layer shares, with its profile file.
func layerTable(runs []profiled) table {
	t := table{Header: []string{"run", "target req/s", "CPU profiled"}}
	t.Header = append(append(t.Header, results.Layers...), "profile")
	t.Right = []bool{false, true, true}
	for range results.Layers {
		t.Right = append(t.Right, true)
	}
	t.Right = append(t.Right, false)
	for _, pr := range runs {
		p := pr.r.CPUProfile
		cells := texts(pr.label, rateText(pr.r.TargetRate), fmt.Sprintf("%s s of %s s", human(p.CPUSeconds), human(p.Seconds)))
		for _, l := range results.Layers {
			cells = append(cells, cell{Text: percent(layerShare(p, l), 0)})
		}
		cells = append(cells, cell{Text: p.File, Href: p.File})
		t.Rows = append(t.Rows, row{Cells: cells})
	}
	return t
}

// topTable lists a profile's functions with the most CPU of their own.
func topTable(p *results.CPUProfile) table {
	t := table{Header: []string{"#", "function", "flat", "cum"}, Right: []bool{true, false, true, true}}
	for i, f := range p.Top {
		t.Rows = append(t.Rows, row{Cells: texts(strconv.Itoa(i+1), f.Name, percent(f.Flat, 1), percent(f.Cum, 1))})
	}
	return t
}

// profilesHowTo explains the CPU profiles.
const profilesHowTo = "A CPU profile of the app was taken over each measured window (-profile-cpu). " +
	"Its samples are grouped into layers by the function they were in: http (net/http, the router and middleware), encoding (encoding/json, html/template, templ, gqlgen's executor and marshalling), " +
	"driver (pgx and its pool), app (the app's own code and the shared crudbench packages), runtime (scheduler and garbage collector) and other; the shares of a run add up to 100%. " +
	"The top functions are those with the most CPU of their own (flat), with the CPU of everything they called (cum), as shares of the profile's CPU. " +
	"A Node.js app's profile is V8's, of the thread that runs its JavaScript (one worker's of a cluster), in the same layers: it does not see libuv's threadpool or the garbage collector's helper threads, and V8 samples on wall-clock time, so its CPU seconds are approximate; its shares are what to read."

// pprofHint is how to see a whole profile.
func pprofHint(file string) string { return "go tool pprof -top " + file }

// layerChart draws one stacked bar per profiled run: where its CPU went.
func layerChart(runs []profiled) template.HTML {
	const w, labelW, right, top, rowH, bottom = 640.0, 200.0, 12.0, 40.0, 20.0, 22.0
	h := top + rowH*float64(len(runs)) + bottom
	s := newSVG(w, h, "share of app CPU by layer")
	s.text(4, 14, "start", "title", "share of app CPU by layer")
	x := 4.0
	for _, l := range results.Layers {
		s.rect(x, 22, 11, 11, layerColors[l], l)
		s.text(x+14, 32, "start", "small", l)
		x += 22 + 6.5*float64(len(l))
	}
	plotW := w - labelW - right
	for i, pr := range runs {
		y := top + float64(i)*rowH
		s.text(labelW-6, y+rowH-6, "end", "label", pr.label)
		x := labelW
		for _, l := range results.Layers {
			share := layerShare(pr.r.CPUProfile, l)
			s.rect(x, y+2, share*plotW, rowH-4, layerColors[l], fmt.Sprintf("%s: %s %s", pr.label, l, percent(share, 1)))
			if share >= 0.08 {
				s.text(x+share*plotW/2, y+rowH-6, "middle", "inbar", percent(share, 0))
			}
			x += share * plotW
		}
	}
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		s.text(labelW+v*plotW, h-8, "middle", "small", percent(v, 0))
	}
	return s.html()
}
