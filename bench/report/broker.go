package report

import "crudbench/bench/results"

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
