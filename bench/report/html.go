package report

import (
	"bytes"
	"html/template"

	"crudbench/bench/results"
)

// page is what the HTML template renders.
type page struct {
	RunLine   string
	HowToRead []string
	Findings  []string
	Apps      []legend
	// AppsTable lists each app's kind and difference; AppsHowTo heads it.
	AppsTable table
	AppsHowTo string
	Profiles  []profileView
	Errors    table
	// Pauses are the runtime's pauses per run, PausesHowTo what they hold.
	Pauses             table
	PausesHowTo        string
	ValidationMatrix   table
	ValidationFailures table
	Environment        table
	Settings           table
	Rates              table
	Costs              []string
	Notes              []string
	Files              table
	BottomLine         bottomLine
	BasisRule          string
	Capacity           *capacityView
	Pages              *pagesView
	LoadCharts         []template.HTML
	CPU                *cpuView
	Facts              *factsView
}

// capacityView is the capacity section: the searches, each one's probes,
// and the confirmation runs' latency over time.
type capacityView struct {
	HowTo     string
	Table     table
	Probes    []labelledTable
	Timelines []template.HTML
}

type labelledTable struct {
	Label string
	Table table
}

// cpuView is where the CPU goes: the layer bars and each run's top functions.
type cpuView struct {
	HowTo  string
	Chart  template.HTML
	Layers table
	Runs   []cpuRunView
}

type cpuRunView struct {
	Label, File, Hint string
	Top               table
}

type factsView struct {
	HowTo string
	Table table
}

type legend struct{ Name, Color string }

type profileView struct {
	// Name is the profile's, Title its heading (which names a closed
	// loop's clients).
	Name, Title string
	Table       table
	Spread      *table
	// Broker is the broker's cost in the runs of amqp apps; nil when
	// there were none.
	Broker     *table
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

// renderHTML renders report.html; dir is where the samples CSVs are.
func renderHTML(dir string, run *results.Run) ([]byte, error) {
	l := layoutOf(run)
	p := page{
		RunLine:            runLine(run),
		HowToRead:          howToRead(run),
		Findings:           Findings(run),
		Errors:             errorTable(run, l),
		Pauses:             pausesTable(run, l),
		PausesHowTo:        pausesHowTo,
		ValidationMatrix:   validationMatrix(run, l),
		ValidationFailures: validationFailures(run),
		Environment:        environmentTable(run),
		Settings:           settingsTable(run),
		AppsTable:          appsTable(run),
		AppsHowTo:          appsHowTo,
		Rates:              ratesTable(run, l),
		Costs:              costLines(run),
		Notes:              run.Notes,
		Files:              filesTable(run, l),
		BottomLine:         bottomLineOf(run, l),
		BasisRule:          basisRule,
		Capacity:           capacitySection(run, l),
		Pages:              pagesSection(run, l),
		LoadCharts:         loadCharts(run, l),
		CPU:                cpuSection(run, l),
	}
	if len(run.Stacks) > 0 {
		p.Facts = &factsView{factsHowTo(run), factsTable(run)}
	}
	for _, a := range l.apps {
		p.Apps = append(p.Apps, legend{appLabel(run, a), l.color(a)})
	}
	for _, prof := range l.profiles {
		if len(l.resultsOf(run, prof)) == 0 && len(run.Pages) > 0 {
			continue // a profile of page scenarios alone: the Pages section has it
		}
		v := profileCharts(dir, l, prof, l.resultsOf(run, prof), hasRepeats(run), clientsOf(run))
		v.Title = profileTitle(run, prof)
		v.Timelines = timelineCharts(l, l.resultsOf(run, prof), sloMs(run))
		p.Profiles = append(p.Profiles, v)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// capacitySection is nil when no capacity search ran.
func capacitySection(run *results.Run, l layout) *capacityView {
	if len(run.Capacities) == 0 {
		return nil
	}
	v := &capacityView{HowTo: capacityHowTo(run), Table: capacityTable(run, l)}
	var confirmations []*results.Result
	for _, c := range l.capacitiesOf(run) {
		for _, s := range c.Each() {
			if len(s.Probes) > 0 {
				v.Probes = append(v.Probes, labelledTable{c.Scenario + " · " + c.App + searchLabel(c, s), probeTable(run.Settings.CapacitySLO(), s)})
			}
		}
		if c.Confirmation != nil {
			confirmations = append(confirmations, c.Confirmation)
		}
	}
	v.Timelines = timelineCharts(l, confirmations, sloMs(run))
	return v
}

// cpuSection is nil when no run was profiled.
func cpuSection(run *results.Run, l layout) *cpuView {
	runs := profiledRuns(run, l)
	if len(runs) == 0 {
		return nil
	}
	v := &cpuView{HowTo: profilesHowTo, Chart: layerChart(runs), Layers: layerTable(runs)}
	for _, pr := range runs {
		p := pr.r.CPUProfile
		v.Runs = append(v.Runs, cpuRunView{pr.label, p.File, pprofHint(p.File), topTable(p)})
	}
	return v
}

// throughputChart is each run's throughput as a share of its target.
func throughputChart(l layout, rs []*results.Result) template.HTML {
	return hbarChart("throughput as % of target (holding the rate needs ≥ "+percent(results.MinThroughputShare, 0)+")", "% of target",
		profileBars(l, rs, func(r *results.Result) (float64, string, bool) {
			if !r.Measured() || r.TargetRate <= 0 {
				return 0, "", false
			}
			return r.Throughput / r.TargetRate * 100, fixed(r.Throughput, 1) + " / " + rateText(r.TargetRate) + " req/s", true
		}), []float64{100 * results.MinThroughputShare, 100}, 100)
}

func profileCharts(dir string, l layout, name string, rs []*results.Result, repeats bool, clients int) profileView {
	v := profileView{Name: name, Table: resultTable(rs, clients)}
	if bt := brokerTable(rs); len(bt.Rows) > 0 {
		v.Broker = &bt
	}
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
	if clients == 0 { // a closed loop has no target to hold
		v.Throughput = throughputChart(l, rs)
	}
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

	v.OverTime, v.OverTimeNotes = overTimeCharts(dir, l, groups)
	return v
}

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// pageHTML is the whole page: styles inline, no script, nothing fetched.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>crudbench report</title>
<style>
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #222; margin: 0; background: #fafafa; }
main { max-width: 1500px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0 2px; }
h2 { font-size: 19px; margin: 32px 0 8px; padding-top: 8px; border-top: 1px solid #ddd; }
h3 { font-size: 15px; margin: 20px 0 6px; }
p.meta { color: #555; margin: 0 0 12px; }
nav a { margin-right: 12px; }
a { color: #1f5fa8; }
.wrap { width: fit-content; max-width: 100%; overflow-x: auto; background: #fff; border: 1px solid #e2e2e2; border-radius: 4px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 7px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { background: #f3f3f3; font-weight: 600; white-space: normal; vertical-align: bottom; }
td.num, th.num { text-align: right; }
td.verdict { white-space: normal; min-width: 180px; }
td.text { white-space: normal; min-width: 260px; }
tr.v-ok td.verdict { color: #2e7d32; font-weight: 600; }
tr.v-saturated td { background: #fff4e5; }
tr.v-saturated td.verdict { color: #b45309; font-weight: 600; }
tr.v-slow td { background: #fffbe6; }
tr.v-slow td.verdict { color: #8a6d00; font-weight: 600; }
tr.v-failed td, tr.v-skipped td { background: #f6f6f6; color: #777; }
tr.v-failed td.verdict { color: #b91c1c; font-weight: 600; }
ul.findings li { margin: 3px 0; }
.howto { max-width: 1000px; color: #333; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; margin: 10px 0; }
svg.chart { background: #fff; border: 1px solid #e2e2e2; border-radius: 4px; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg text.title { font-size: 12px; font-weight: 600; }
svg text.small { font-size: 10px; fill: #555; }
svg text.inbar { font-size: 10px; fill: #fff; }
svg text.muted { font-size: 11px; fill: #999; font-style: italic; }
svg .grid { stroke: #ececec; }
svg .axis { stroke: #888; }
svg .ref { stroke: #c0392b; stroke-dasharray: 4 3; }
.legend span { display: inline-block; margin-right: 14px; }
.legend i { display: inline-block; width: 11px; height: 11px; margin-right: 4px; vertical-align: -1px; border-radius: 2px; }
.note { color: #666; font-size: 13px; }
details { margin: 4px 0; }
summary { cursor: pointer; }
</style>
</head>
<body>
<main>
<h1>crudbench report</h1>
<p class="meta">{{.RunLine}}</p>
<nav>
{{if or .BottomLine.Table.Rows .BottomLine.Pages}}<a href="#bottom-line">Bottom line</a>{{end}}{{if .AppsTable.Rows}}<a href="#apps">Apps</a>{{end}}<a href="#findings">Findings</a>{{if .Pages}}<a href="#pages">Pages</a>{{end}}{{if .Capacity}}<a href="#capacity">Capacity</a>{{end}}{{if .LoadCharts}}<a href="#load">Latency against load</a>{{end}}{{range .Profiles}}<a href="#profile-{{.Name}}">Results: {{.Name}}</a>{{end}}{{if .CPU}}<a href="#cpu">Where the CPU goes</a>{{end}}{{if .Facts}}<a href="#facts">Stack facts</a>{{end}}<a href="#errors">Request errors</a><a href="#validation">Validation</a><a href="#environment">Environment</a><a href="#files">Files</a>
</nav>

{{with .BottomLine}}{{if or .Table.Rows .Pages}}<h2 id="bottom-line">Bottom line</h2>
{{if or .Sentences .Pages}}<ul class="findings">{{range .Sentences}}<li>{{.}}</li>{{end}}{{range .Pages}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Table.Rows}}{{template "table" .Table}}
<p class="note">{{$.BasisRule}} {{.Sources}}</p>{{end}}{{end}}{{end}}

{{if .AppsTable.Rows}}<h2 id="apps">Apps</h2>
<p class="howto">{{.AppsHowTo}}</p>
{{template "table" .AppsTable}}{{end}}

<h2 id="how">How to read this</h2>
<div class="howto">{{range .HowToRead}}<p>{{.}}</p>{{end}}</div>

<h2 id="findings">Findings</h2>
{{if .Findings}}<ul class="findings">{{range .Findings}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>No measured results to compare.</p>{{end}}

{{with .Pages}}<h2 id="pages">Pages</h2>
<p class="howto">{{.HowTo}}</p>
{{if .Sentences}}<ul class="findings">{{range .Sentences}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{template "table" .Table}}
{{if .Settings}}<p class="note">{{.Settings}}</p>{{end}}
{{if .Charts}}<h3>Time to data against view rate</h3>
<p class="legend">{{range $.Apps}}<span><i style="background: {{.Color}}"></i>{{.Name}}</span>{{end}}</p>
<div class="charts">{{range .Charts}}{{.}}{{end}}</div>{{end}}
{{if .Errors.Rows}}<h3>Failed page views</h3>
{{template "table" .Errors}}{{end}}
{{end}}

{{with .Capacity}}<h2 id="capacity">Capacity</h2>
<p class="howto">{{.HowTo}}</p>
{{template "table" .Table}}
{{if .Probes}}<h3>Probes of each search</h3>
{{range .Probes}}<details><summary>{{.Label}}</summary>{{template "table" .Table}}</details>
{{end}}{{end}}
{{if .Timelines}}<h3>Confirmation runs: latency per second</h3>
<div class="charts">{{range .Timelines}}{{.}}{{end}}</div>{{end}}
{{end}}

{{if .LoadCharts}}<h2 id="load">Latency against load</h2>
<p class="howto">Every rate measured in this run, per scenario and app: the fixed profiles, the capacity probes and the confirmation runs. A cross marks a run that did not hold its rate: its latency is the length of a queue.</p>
<div class="charts">{{range .LoadCharts}}{{.}}{{end}}</div>{{end}}

{{range .Profiles}}
<h2 id="profile-{{.Name}}">Results: {{.Title}}</h2>
{{template "table" .Table}}
{{with .Spread}}<h3>Spread across repeats (max − min)</h3>
{{template "table" .}}{{end}}
{{with .Broker}}<h3>The broker (RabbitMQ)</h3>
{{template "table" .}}{{end}}
{{if .Latency}}
<h3>Latency percentiles</h3>
<div class="charts">{{range .Latency}}{{.}}{{end}}</div>
<h3>Throughput, CPU and memory</h3>
<p class="legend">{{range $.Apps}}<span><i style="background: {{.Color}}"></i>{{.Name}}</span>{{end}}</p>
<div class="charts">{{.Throughput}}{{.CPU}}{{.RSS}}</div>
{{if .Timelines}}<h3>Latency per second</h3>
<div class="charts">{{range .Timelines}}{{.}}{{end}}</div>{{end}}
<h3>CPU and memory over time</h3>
{{if .OverTime}}<div class="charts">{{range .OverTime}}{{.}}{{end}}</div>{{else}}<p class="note">No samples were found, so there are no over-time charts for this profile.</p>{{end}}
{{range .OverTimeNotes}}<p class="note">{{.}}</p>{{end}}
{{end}}
{{end}}

{{with .CPU}}<h2 id="cpu">Where the CPU goes</h2>
<p class="howto">{{.HowTo}}</p>
<div class="charts">{{.Chart}}</div>
{{template "table" .Layers}}
<h3>Top functions</h3>
{{range .Runs}}<details><summary>{{.Label}}</summary>{{template "table" .Top}}
<p class="note">Profile: <a href="{{.File}}">{{.File}}</a> — the whole of it: <code>{{.Hint}}</code></p></details>
{{end}}{{end}}

{{with .Facts}}<h2 id="facts">Stack facts</h2>
<p class="howto">{{.HowTo}}</p>
{{template "table" .Table}}{{end}}

{{if .Pauses.Rows}}<h2 id="pauses">Runtime pauses</h2>
<p class="howto">{{.PausesHowTo}}</p>
{{template "table" .Pauses}}{{end}}

<h2 id="errors">Request errors</h2>
{{if .Errors.Rows}}{{template "table" .Errors}}{{else}}<p>No failed requests in any measured run.</p>{{end}}

<h2 id="validation">Validation</h2>
{{if .ValidationMatrix.Rows}}{{template "table" .ValidationMatrix}}{{else}}<p>No validation was recorded.</p>{{end}}
{{if .ValidationFailures.Rows}}<p>Failed checks (these runs were not measured):</p>
{{template "table" .ValidationFailures}}{{end}}

<h2 id="environment">Environment</h2>
{{template "table" .Environment}}
<h3>Settings</h3>
{{template "table" .Settings}}
{{if .Rates.Rows}}<h3>Target rates (req/s)</h3>
{{template "table" .Rates}}{{end}}
<h3>Load generator and sampler</h3>
<ul>{{range .Costs}}<li>{{.}}</li>{{end}}</ul>

<h2 id="notes">Notes</h2>
{{if .Notes}}<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>None.</p>{{end}}

<h2 id="files">Files</h2>
<p>Raw results are in vegeta's own encoding: <code>vegeta report FILE</code> prints its summary and <code>vegeta plot FILE &gt; plot.html</code> charts every request. Samples are the CPU and memory readings of each app over the run.</p>
{{if .Files.Rows}}{{template "table" .Files}}{{else}}<p>No files were recorded.</p>{{end}}
</main>
</body>
</html>
{{define "table"}}<div class="wrap"><table>
<thead><tr>{{range $i, $h := .Header}}<th{{if index $.Right $i}} class="num"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr{{with .Class}} class="v-{{.}}"{{end}}>{{range $i, $c := .Cells}}<td{{if index $.Right $i}} class="num"{{else if $c.Verdict}} class="verdict"{{else if $c.Wrap}} class="text"{{end}}>{{if $c.Href}}<a href="{{$c.Href}}">{{$c.Text}}</a>{{else}}{{$c.Text}}{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}
`
