package runner

import (
	"fmt"
	"slices"

	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// poolSuffix names the series scraped from an app's metrics for its pool
// alone, when its CPU and memory come from /proc.
const poolSuffix = ".metrics"

// sources says where one app's figures come from in an attack's series.
type sources struct {
	// app names the series of the app's CPU and memory; cpu is its source
	// (results.SourceProc or SourceMetrics), empty when there is none.
	app, cpu string
	// pid is the process /proc is read for, 0 when it is not.
	pid int
	// metricsURL is scraped for the pool (and for CPU and memory when cpu
	// is SourceMetrics), into the series called pool; empty when unknown.
	metricsURL, pool string
}

// sourcesFor chooses an app's sources: /proc when its process is visible
// and not ruled out (-no-proc), else its metrics when their URL is known;
// its metrics for the pool whenever their URL is known.
func (r *runner) sourcesFor(app string) sources {
	u := r.apps[app]
	s := sources{app: app, pid: u.pid, metricsURL: u.metricsURL}
	switch {
	case u.pid > 0:
		s.cpu = results.SourceProc
		s.pool = app + poolSuffix
	case u.metricsURL != "":
		s.cpu = results.SourceMetrics
		s.pool = app
	}
	if s.metricsURL == "" {
		s.pool = ""
	}
	return s
}

// sourceNotes state how figures from the apps' metrics were taken, when
// some were.
func (r *runner) sourceNotes() []string {
	scraped := slices.ContainsFunc(r.cfg.Apps, func(name string) bool {
		u, ok := r.apps[name]
		return ok && u.metricsURL != ""
	})
	if !scraped {
		return nil
	}
	return []string{fmt.Sprintf("App metrics (Prometheus, scraped every %s, never more often than once a second): the pool's wait per request is pgxpool_acquire_duration_seconds_total over the scrapes around the window, scaled to its length, divided by the window's requests. Where /proc could not or was told not to be used (-no-proc), CPU and RSS come from process_cpu_seconds_total and process_resident_memory_bytes of the same scrapes (the report says which): rates over the scrapes around the window, in 10 ms ticks, so CPU-ms per request is coarser there.",
		max(r.cfg.SampleInterval, sampler.MinScrapeInterval))}
}
