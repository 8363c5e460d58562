package report

import (
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"path/filepath"
	"strings"

	"crudbench/bench/results"
)

// overTime gathers the CPU and RSS line charts of a profile, scenario by
// scenario, and what kept a run's lines out of them.
type overTime struct {
	dir    string
	l      layout
	charts []template.HTML
	// notes say why a run's samples could not be read; missing and
	// unrecorded name the runs whose samples file is not there or was
	// never written, told after them in one sentence each.
	notes, missing, unrecorded []string
}

// overTimeCharts returns the over-time charts of groups, one group per
// scenario, and the notes on the runs they lack; dir is where the samples
// CSVs are.
func overTimeCharts(dir string, l layout, groups [][]*results.Result) ([]template.HTML, []string) {
	o := overTime{dir: dir, l: l}
	for _, g := range groups {
		o.addScenario(g)
	}
	if len(o.missing) > 0 {
		o.notes = append(o.notes, "Samples files not found beside the report, so their over-time lines are omitted: "+strings.Join(o.missing, ", ")+".")
	}
	if len(o.unrecorded) > 0 {
		o.notes = append(o.notes, "No samples file was recorded for: "+strings.Join(o.unrecorded, ", ")+".")
	}
	return o.charts, o.notes
}

// addScenario draws the CPU and RSS charts of one scenario's runs g.
func (o *overTime) addScenario(g []*results.Result) {
	var cpu, rss []series
	for _, r := range g {
		if !r.Measured() {
			continue
		}
		s, ok := o.samplesOf(r)
		if !ok {
			continue
		}
		cpuPct := make([]point, len(s.cpu))
		for i, p := range s.cpu {
			cpuPct[i] = point{p.x, p.y * 100}
		}
		if len(cpuPct) > 0 {
			cpu = append(cpu, series{r.App, o.l.color(r.App), cpuPct})
		}
		if len(s.rss) > 0 {
			rss = append(rss, series{r.App, o.l.color(r.App), s.rss})
		}
	}
	scen := g[0].Scenario
	if len(cpu) > 0 {
		o.charts = append(o.charts, lineChart(scen+": app CPU over time", "% of one core", cpu))
	}
	if len(rss) > 0 {
		o.charts = append(o.charts, lineChart(scen+": app RSS over time", "MB", rss))
	}
}

// samplesOf reads the samples of run r, or notes why it cannot.
func (o *overTime) samplesOf(r *results.Result) (samples, bool) {
	name := r.Scenario + " · " + r.App
	if r.SamplesFile == "" {
		o.unrecorded = append(o.unrecorded, name)
		return samples{}, false
	}
	path := r.SamplesFile
	if !filepath.IsAbs(path) {
		path = filepath.Join(o.dir, filepath.FromSlash(path))
	}
	s, err := readSamples(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		o.missing = append(o.missing, name+" ("+r.SamplesFile+")")
		return samples{}, false
	case err != nil:
		o.notes = append(o.notes, fmt.Sprintf("%s: samples could not be read (%v); its over-time lines are omitted.", name, err))
		return samples{}, false
	}
	return s, true
}
