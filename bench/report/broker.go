package report

import (
	"fmt"
	"strings"

	"crudbench/bench/results"
)

// brokerTable is what the broker between the load and the amqp apps
// spent in each of a profile's runs of such an app, measured as
// PostgreSQL is, with its request queue's depth over the window; no rows
// when the profile measured no amqp app.
func brokerTable(rs []*results.Result) table {
	t := table{
		Header: []string{"scenario", "app", "broker CPU mean", "broker CPU ms/req", "broker RSS mean MB", "broker RSS max MB", "queue depth mean", "queue depth max"},
		Right:  []bool{false, false, true, true, true, true, true, true},
	}
	for _, r := range rs {
		b := r.Broker
		if b == nil || !r.Measured() {
			continue
		}
		c := []string{r.Scenario, r.App}
		if b.CPUAvailable {
			c = append(c, percent(b.CPUMean, 1), fixed(b.CPUMsPerRequest, 2), fixed(b.RSSMeanMB, 1), fixed(b.RSSMaxMB, 1))
		} else {
			c = append(c, na, na, na, na)
		}
		if b.QueueAvailable {
			c = append(c, fixed(b.QueueDepthMean, 1), thousands(float64(b.QueueDepthMax)))
		} else {
			c = append(c, na, na)
		}
		t.Rows = append(t.Rows, row{Cells: texts(c...)})
	}
	return t
}

// stackSentence states, when an amqp app's broker was measured among ms,
// the CPU per request of each app's whole stack: the app, its broker (an
// amqp app's) and PostgreSQL, the processes a request crosses, so that a
// kind that moves work into a broker is not read as cheaper by its app's
// figure alone. Apps whose figures were not all read are left out; ""
// when no broker was measured.
func stackSentence(label string, ms []*results.Result) string {
	var parts []string
	brokered := false
	for _, r := range ms {
		if !appCPUPerRequest(r) || !cpuResolved(r) || !r.DB.CPUAvailable {
			continue
		}
		terms := []string{small(r.AppCost.CPUMsPerRequest)}
		total := r.AppCost.CPUMsPerRequest
		if b := r.Broker; b != nil {
			if !b.CPUAvailable {
				continue
			}
			brokered = true
			terms = append(terms, small(b.CPUMsPerRequest))
			total += b.CPUMsPerRequest
		}
		terms = append(terms, small(r.DB.CPUMsPerRequest))
		total += r.DB.CPUMsPerRequest
		parts = append(parts, fmt.Sprintf("%s %s = %s ms", r.App, strings.Join(terms, " + "), small(total)))
	}
	if !brokered {
		return ""
	}
	return fmt.Sprintf("%s: CPU per request end to end (app + broker, for an amqp app, + PostgreSQL): %s.", label, strings.Join(parts, "; "))
}
