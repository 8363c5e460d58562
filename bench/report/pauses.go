package report

import (
	"bytes"

	"crudbench/bench/results"
)

// pausesHowTo says what the runtime pauses table holds.
const pausesHowTo = "What each app's runtime paused during its measured window, read from its own metrics once a second: " +
	"the garbage collector's pauses (Go: its stop-the-world pauses; Node: every collection, which holds the event loop) as the p99 of the window's pauses, the time paused per second and the pauses per second; " +
	"for Node, the event loop's delay beyond its timer's 10 ms interval (held by JavaScript, a collection or anything else on its one thread): the longest, and the time per second. " +
	"A request that arrives during a pause waits for it: a tail the runtime paused for shows here, and a capacity search names it as its stop reason (gc-pause, event-loop-lag). n/a: the runtime exports no such figure."

// pausesTable lists the runtime's pauses of every measured run whose app's
// metrics had them; no rows when none had.
func pausesTable(run *results.Run, l layout) table {
	t := table{
		Header: []string{"profile", "scenario", "app", "GC p99 ms", "GC ms/s", "GC pauses/s", "event loop longest ms", "event loop ms/s"},
		Right:  []bool{false, false, false, true, true, true, true, true},
	}
	for _, p := range l.profiles {
		for _, r := range l.resultsOf(run, p) {
			ps := r.AppCost.Pauses
			if !r.Measured() || ps == nil {
				continue
			}
			c := []string{p, r.Scenario, r.App, na, na, na, na, na}
			if g := ps.GC; g != nil {
				c[3], c[4], c[5] = small(g.P99Ms), small(g.MsPerSecond), human(g.PerSecond)
			}
			if e := ps.EventLoop; e != nil {
				c[6], c[7] = human(e.MaxMs), human(e.MsPerSecond)
			}
			t.Rows = append(t.Rows, row{Cells: texts(c...), Class: r.Verdict})
		}
	}
	return t
}

// writeMDPauses writes the runtime pauses table, when a run had figures.
func writeMDPauses(b *bytes.Buffer, run *results.Run, l layout) {
	t := pausesTable(run, l)
	if len(t.Rows) == 0 {
		return
	}
	b.WriteString("## Runtime pauses\n\n" + pausesHowTo + "\n\n")
	writeMDTable(b, t)
}
