package report

import (
	"bytes"

	"crudbench/bench/results"
)

// appsTable lists each app with the kind of contract it meets and, for a
// tuned variant, its difference from the kind's default, as the runner's
// table of apps says it: the difference is never written here. A run
// recorded before apps had kinds has no table.
func appsTable(run *results.Run) table {
	t := table{Header: []string{"app", "kind", "difference from the kind's default"}, Right: []bool{false, false, false}}
	for _, a := range run.Settings.AppInfo {
		diff := a.Difference
		if diff == "" {
			diff = "–"
		}
		t.Rows = append(t.Rows, row{Cells: []cell{{Text: a.Name}, {Text: orNA(a.Kind)}, {Text: diff, Wrap: true}}})
	}
	return t
}

// appsHowTo introduces the apps table.
const appsHowTo = "Each app is a named implementation of a kind of contract (rest, graphql, site, grpc, trpc or amqp). A tuned variant measures what one change to its kind's default buys; variants do the same work as the default (same data, same statements, no cached responses). A dash marks a kind's default or an attached implementation that is not built in."

// writeMDApps writes the apps table, when the run recorded one.
func writeMDApps(b *bytes.Buffer, run *results.Run) {
	t := appsTable(run)
	if len(t.Rows) == 0 {
		return
	}
	b.WriteString("## Apps\n\n" + mdText(appsHowTo) + "\n\n")
	writeMDTable(b, t)
}

// appLabel names an app in a legend: its name, and its kind when the run
// recorded it and the name does not already say it.
func appLabel(run *results.Run, name string) string {
	for _, a := range run.Settings.AppInfo {
		if a.Name == name && a.Kind != "" && a.Kind != name {
			return name + " (" + a.Kind + ")"
		}
	}
	return name
}
