package report

import (
	"fmt"
	"strings"

	"crudbench/bench/results"
)

// sources says where the apps' CPU and memory figures came from (in fixed
// profiles' runs and capacity confirmations), when any came from their
// metrics rather than /proc: figures from metrics are coarser (1 s
// scrapes, 10 ms ticks), and a reader comparing apps should know which
// were read how, and which app's are the sum of its replicas'. Files
// written before there was a choice have no source: theirs came from
// /proc.
func sources(run *results.Run, l layout) []string {
	measured := make([]*results.Result, 0, len(run.Results)+len(run.Capacities))
	for i := range run.Results {
		measured = append(measured, &run.Results[i])
	}
	for i := range run.Capacities {
		for _, c := range run.Capacities[i].Each() {
			measured = append(measured, c.Runs()...)
		}
	}
	var proc, scraped []string
	for _, a := range l.apps {
		var fromProc, fromMetrics, replicas int
		for _, r := range measured {
			if r.App != a || !r.Measured() || !r.AppCost.Available {
				continue
			}
			if r.AppCost.Source == results.SourceMetrics {
				fromMetrics++
				replicas = max(replicas, r.AppCost.Replicas)
			} else {
				fromProc++
			}
		}
		var about []string
		if replicas > 1 {
			about = append(about, fmt.Sprintf("%d replicas, added up", replicas))
		}
		if fromMetrics > 0 && fromProc > 0 {
			about = append(about, fmt.Sprintf("%d of its %d runs", fromMetrics, fromMetrics+fromProc))
		}
		switch {
		case fromMetrics > 0 && len(about) > 0:
			scraped = append(scraped, fmt.Sprintf("%s (%s)", a, strings.Join(about, ", ")))
		case fromMetrics > 0:
			scraped = append(scraped, a)
		case fromProc > 0:
			proc = append(proc, a)
		}
	}
	if len(scraped) == 0 {
		return nil
	}
	s := "App CPU and RSS came from the apps' metrics (Prometheus, 1 s scrapes, CPU in 10 ms ticks) for " + strings.Join(scraped, ", ")
	if len(proc) > 0 {
		s += " and from /proc for " + strings.Join(proc, ", ")
	}
	return []string{s + "."}
}
