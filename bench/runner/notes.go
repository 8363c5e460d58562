package runner

import (
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
	"crudbench/db"
)

// note records s among the run's notes, once.
func (r *runner) note(s string) { r.book.note(s) }

// method is what the report's notes on the method quote of this run.
func (r *runner) method() results.Method {
	m := results.Method{
		MaxConnections: r.cfg.MaxConnections,
		Warmup:         r.cfg.Warmup, Duration: r.cfg.Duration, Cooldown: r.cfg.Cooldown,
		SampleInterval: r.cfg.SampleInterval,
		TreeEvery:      sampler.TreeEvery, MemoryEvery: sampler.MemoryEvery,
		ReadSmallLimit: scenario.ReadSmallLimit, DefaultLimit: db.DefaultLimit, ReadSlimLimit: scenario.ReadSlimLimit,
		ProfileCPU: r.cfg.ProfileCPU, GRPCConns: r.cfg.MeasuredGRPCConns(), AMQPConns: r.cfg.MeasuredAMQPConns(), Clients: r.cfg.Clients,
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
