package diff

import (
	"fmt"

	"crudbench/bench/results"
)

// Comparable says why old and new cannot be compared, or nil when they
// can: their loads must have been sent the same way. An open run's
// latencies include the queueing a slow server causes, a closed loop's do
// not (its clients wait instead of sending), and a closed loop's
// throughput is what its clients got, not a rate asked for; so a change
// between an open run and a closed one, or between closed loops of
// different clients, is the method's, not the app's.
func Comparable(old, new *results.Run) error {
	o, n := old.Settings, new.Settings
	switch {
	case o.LoadModel() != n.LoadModel():
		return fmt.Errorf("the old run's load is %s and the new run's %s: a closed loop's latencies leave out the queueing an open run counts, and its throughput is what its clients got, not a rate; compare runs of one model (-model)",
			modelText(o), modelText(n))
	case o.Clients != n.Clients:
		return fmt.Errorf("the old run's load is %s and the new run's %s: throughput and latency depend on the clients; compare runs with the same -clients",
			modelText(o), modelText(n))
	}
	return nil
}

// modelText names the model of s's load.
func modelText(s results.Settings) string {
	if s.LoadModel() == results.ModelClosed {
		return fmt.Sprintf("a closed loop of %d client(s)", s.Clients)
	}
	return "open (constant rates)"
}
