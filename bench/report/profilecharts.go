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

type profileView struct {
	Name       string
	Table      table
	Spread     *table
	Latency    []template.HTML
	Throughput template.HTML
	CPU        template.HTML
	RSS        template.HTML
	// Timelines holds each run's latency per second, small multiples.
	Timelines []template.HTML
	// OverTime holds the CPU and RSS line charts per scenario; OverTimeNotes
	// say which samples were missing and why a chart is absent.
	OverTime      []template.HTML
	OverTimeNotes []string
}

func profileCharts(dir string, l layout, name string, rs []*results.Result, repeats bool) profileView {
	v := profileView{Name: name, Table: resultTable(rs)}
	if repeats {
		st := spreadTable(rs)
		v.Spread = &st
	}
	if len(rs) == 0 {
		return v
	}
	groups := scenarioGroups(rs)
	for _, g := range groups {
		v.Latency = append(v.Latency, latencyChart(l, g))
	}
	v.Throughput = hbarChart("throughput as % of target (holding the rate needs ≥ 95%)", "% of target",
		profileBars(l, rs, func(r *results.Result) (float64, string, bool) {
			if !r.Measured() || r.TargetRate <= 0 {
				return 0, "", false
			}
			return r.Throughput / r.TargetRate * 100, fixed(r.Throughput, 1) + " / " + rateText(r.TargetRate) + " req/s", true
		}), []float64{95, 100}, 100)
	v.CPU = hbarChart("app CPU mean (% of one core)", "% of a core",
		profileBars(l, rs, func(r *results.Result) (float64, string, bool) {
			if !r.Measured() || !r.AppCost.Available {
				return 0, "", false
			}
			return r.AppCost.CPUMean * 100, percent(r.AppCost.CPUMean, 1), true
		}), nil, 0)
	v.RSS = hbarChart("app RSS max (MB)", "MB",
		profileBars(l, rs, func(r *results.Result) (float64, string, bool) {
			if !r.Measured() || !r.AppCost.Available {
				return 0, "", false
			}
			return r.AppCost.RSSMaxMB, fixed(r.AppCost.RSSMaxMB, 1) + " MB", true
		}), nil, 0)

	var missing, unrecorded []string
	for _, g := range groups {
		var cpu, rss []series
		for _, r := range g {
			if !r.Measured() {
				continue
			}
			name := r.Scenario + " · " + r.App
			if r.SamplesFile == "" {
				unrecorded = append(unrecorded, name)
				continue
			}
			path := r.SamplesFile
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, filepath.FromSlash(path))
			}
			s, err := readSamples(path)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				missing = append(missing, name+" ("+r.SamplesFile+")")
				continue
			case err != nil:
				v.OverTimeNotes = append(v.OverTimeNotes, fmt.Sprintf("%s: samples could not be read (%v); its over-time lines are omitted.", name, err))
				continue
			}
			cpuPct := make([]point, len(s.cpu))
			for i, p := range s.cpu {
				cpuPct[i] = point{p.x, p.y * 100}
			}
			if len(cpuPct) > 0 {
				cpu = append(cpu, series{r.App, l.color(r.App), cpuPct})
			}
			if len(s.rss) > 0 {
				rss = append(rss, series{r.App, l.color(r.App), s.rss})
			}
		}
		scen := g[0].Scenario
		if len(cpu) > 0 {
			v.OverTime = append(v.OverTime, lineChart(scen+": app CPU over time", "% of one core", cpu))
		}
		if len(rss) > 0 {
			v.OverTime = append(v.OverTime, lineChart(scen+": app RSS over time", "MB", rss))
		}
	}
	if len(missing) > 0 {
		v.OverTimeNotes = append(v.OverTimeNotes, "Samples files not found beside the report, so their over-time lines are omitted: "+strings.Join(missing, ", ")+".")
	}
	if len(unrecorded) > 0 {
		v.OverTimeNotes = append(v.OverTimeNotes, "No samples file was recorded for: "+strings.Join(unrecorded, ", ")+".")
	}
	return v
}
