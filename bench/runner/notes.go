package runner

import (
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
	"crudbench/db"
)

// note records s among the run's notes, once.
func (r *runner) note(s string) {
	if !slices.Contains(r.notes, s) {
		r.notes = append(r.notes, s)
	}
}

// noteUnread says that the run called what has no app cost because the
// replicas at unread could not be read over its window.
func (r *runner) noteUnread(what string, unread []string) {
	if len(unread) == 0 {
		return
	}
	r.note(fmt.Sprintf("%s: the app's CPU, RSS and pool are n/a: the metrics of its replicas at %s could not be read over the measured window, and a sum of the others' would be too low.", what, strings.Join(unread, ", ")))
}

// notePool says why app's pool wait is n/a when the runner scraped its
// metrics and found no pool counters there (an attached app that exports
// none).
func (r *runner) notePool(app string, c results.ProcessCost) {
	u := r.apps[app]
	if c.Pool != nil || len(u.metricsURLs) != 1 {
		return
	}
	r.note(fmt.Sprintf("%s: its pool wait is n/a: its metrics (%s) gave no pool counters over the window (pgxpool_acquire_count_total, pgxpool_acquire_duration_seconds_total).", app, u.metricsURLs[0]))
}

// method is what the report's notes on the method quote of this run.
func (r *runner) method() results.Method {
	m := results.Method{
		MaxConnections: r.cfg.MaxConnections,
		Warmup:         r.cfg.Warmup, Duration: r.cfg.Duration, Cooldown: r.cfg.Cooldown,
		SampleInterval: r.cfg.SampleInterval,
		TreeEvery:      sampler.TreeEvery, MemoryEvery: sampler.MemoryEvery,
		ReadSmallLimit: scenario.ReadSmallLimit, DefaultLimit: db.DefaultLimit, ReadSlimLimit: scenario.ReadSlimLimit,
		ProfileCPU: r.cfg.ProfileCPU, GRPCConns: r.cfg.MeasuredGRPCConns(),
	}
	for _, w := range scenario.MixWeights {
		m.Mix = append(m.Mix, results.MixShare{Percent: w.Percent, Scenario: w.Scenario})
	}
	if r.validator != nil && r.validator.Ref != nil {
		m.ParitySource = r.validator.Ref.Source
	}
	for _, name := range r.cfg.Apps {
		if u, ok := r.apps[name]; ok && len(u.metricsURLs) > 0 {
			m.ScrapeInterval = max(r.cfg.SampleInterval, sampler.MinScrapeInterval)
		}
		if len(r.cfg.MetricsURLs[name]) > 1 {
			m.Replicas = true
		}
	}
	return m
}
