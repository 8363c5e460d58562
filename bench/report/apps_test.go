package report_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"crudbench/bench/report"
	"crudbench/bench/results"
)

// variantRun is newRun with a tuned variant of graphql and an attached
// candidate of kind rest measured beside the three defaults: five apps.
func variantRun(t *testing.T) *results.Run {
	t.Helper()
	run := newRun(t)
	for _, r := range slices.Clone(run.Results) {
		switch r.App {
		case "graphql":
			r.App, r.RawFile, r.SamplesFile = "graphql-tuned", "", ""
			run.Results = append(run.Results, r)
		case "rest":
			r.App, r.RawFile, r.SamplesFile = "candidate", "", ""
			run.Results = append(run.Results, r)
		}
	}
	run.Settings.Apps = []string{"rest", "graphql", "graphql-tuned", "htmx", "candidate"}
	run.Settings.AppInfo = []results.App{
		{Name: "rest", Kind: "rest"}, {Name: "graphql", Kind: "graphql"},
		{Name: "graphql-tuned", Kind: "graphql", Difference: "GOGC=400: the collector runs a quarter as often"},
		{Name: "htmx", Kind: "site"}, {Name: "candidate", Kind: "rest"},
	}
	return run
}

func TestAppsAndVariants(t *testing.T) {
	dir := written(t, variantRun(t))
	md := readFile(t, filepath.Join(dir, report.MarkdownFile))
	apps := between(md, "## Apps\n", "## ")
	for _, line := range []string{
		"| rest | rest | – |",
		"| graphql-tuned | graphql | GOGC=400: the collector runs a quarter as often |",
		"| htmx | site | – |",
		"| candidate | rest | – |",
	} {
		if !strings.Contains(apps, line) {
			t.Errorf("the apps section has no row %q:\n%s", line, apps)
		}
	}
	// Default and variant are rows of the same result tables.
	light := between(md, "## Results: light\n", "## ")
	for _, a := range []string{"| graphql |", "| graphql-tuned |", "| candidate |"} {
		if !strings.Contains(light, a) {
			t.Errorf("the light results have no row of %s", a)
		}
	}

	doc, err := html.Parse(strings.NewReader(readFile(t, filepath.Join(dir, report.HTMLFile))))
	if err != nil {
		t.Fatal(err)
	}
	colors := map[string]string{} // legend label -> colour
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "p" && attr(n, "class") == "legend" {
			for span := range n.ChildNodes() {
				if i := span.FirstChild; i != nil && i.Data == "i" {
					colors[text(span)] = attr(i, "style")
				}
			}
			break
		}
	}
	labels := []string{"rest", "graphql", "graphql-tuned (graphql)", "htmx (site)", "candidate (rest)"}
	seen := map[string]bool{}
	for _, l := range labels {
		c, ok := colors[l]
		if !ok || seen[c] {
			t.Errorf("legend %q: colour %q (present %v, already used %v); legends %v", l, c, ok, seen[c], colors)
		}
		seen[c] = true
	}
}

func TestNoAppsSectionWithoutKinds(t *testing.T) {
	md := readFile(t, filepath.Join(written(t, newRun(t)), report.MarkdownFile))
	if strings.Contains(md, "## Apps") {
		t.Error("a run that recorded no kinds has an apps section")
	}
}
