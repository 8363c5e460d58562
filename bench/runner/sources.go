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

// replicaSuffix names the series of an app's replicas, numbered from 1.
const replicaSuffix = ".replica"

// sources says where one app's figures come from in an attack's series.
type sources struct {
	// app names the series of the app's CPU and memory; cpu is its source
	// (results.SourceProc or SourceMetrics), empty when there is none.
	app, cpu string
	// pid is the process /proc is read for, 0 when it is not.
	pid int
	// scrapes are the app's metrics, one per process, each scraped into a
	// series of its own: for the pool, and for CPU and memory when cpu is
	// SourceMetrics. With one, its series is app when cpu is
	// SourceMetrics; with several (replicas), the app's figures are the
	// sum of theirs. None when their URL is unknown.
	scrapes []scrape
}

// scrape is one process's metrics: the URL and the series it is read into.
type scrape struct {
	url, series string
}

// sourcesFor chooses an app's sources: /proc when its process is visible
// and not ruled out (-no-proc), else its metrics when their URL is known;
// its metrics for the pool whenever their URL is known.
func (r *runner) sourcesFor(app string) sources {
	u := r.apps[app]
	s := sources{app: app, pid: u.pid}
	switch {
	case u.pid > 0:
		s.cpu = results.SourceProc
	case len(u.metricsURLs) > 0:
		s.cpu = results.SourceMetrics
	}
	for i, url := range u.metricsURLs {
		name := app + poolSuffix
		switch {
		case len(u.metricsURLs) > 1:
			name = fmt.Sprintf("%s%s%d", app, replicaSuffix, i+1)
		case s.cpu == results.SourceMetrics:
			name = app
		}
		s.scrapes = append(s.scrapes, scrape{url: url, series: name})
	}
	return s
}

// replicated reports whether the app runs as several processes, whose
// figures are added up.
func (s sources) replicated() bool { return len(s.scrapes) > 1 }

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
