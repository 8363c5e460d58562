package runner

import (
	"fmt"
	"slices"

	"crudbench/bench/sampler"
)

// sourceNotes state how figures from the apps' metrics were taken, when
// some were.
func (r *runner) sourceNotes() []string {
	scraped := slices.ContainsFunc(r.cfg.Apps, func(name string) bool {
		u, ok := r.apps[name]
		return ok && len(u.metricsURLs) > 0
	})
	if !scraped {
		return nil
	}
	notes := []string{fmt.Sprintf("App metrics (Prometheus, scraped every %s, never more often than once a second): the pool's wait per request is pgxpool_acquire_duration_seconds_total over the scrapes around the window, scaled to its length, divided by the window's requests. Where /proc could not or was told not to be used (-no-proc), CPU and RSS come from process_cpu_seconds_total and process_resident_memory_bytes of the same scrapes (the report says which): rates over the scrapes around the window, in 10 ms ticks, so CPU-ms per request is coarser there.",
		max(r.cfg.SampleInterval, sampler.MinScrapeInterval))}
	if slices.ContainsFunc(r.cfg.Apps, func(name string) bool { return len(r.cfg.MetricsURLs[name]) > 1 }) {
		notes = append(notes, "An app run as replicas (-metrics-url given for it more than once) has the sum of its replicas' figures, each from its own scrapes: CPU (its peak the sum of the replicas' peaks, a bound), RSS (mean, peak, start and end each added up), the pool's acquisitions, wait and size. A replica not read over a window makes the app's figures n/a there, never a sum of the others. Each replica's samples are in samples/<run>.replica1.csv and on; samples/<run>.csv holds none.")
	}
	return notes
}
