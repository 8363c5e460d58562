package runner

import (
	"context"
	"fmt"
	"io"

	"crudbench/bench/cost"
	"crudbench/bench/load"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
)

// attackOptions sets one run's attack from the configuration: its rate,
// timings and limits, where raw results go, and how progress is shown.
func (r *runner) attackOptions(j load.Job, rate float64, wl *scenario.Workload, raw io.Writer, progress func(load.Progress)) load.Options {
	return load.Options{
		Name:           fmt.Sprintf("%s/%s/%s", j.Profile, j.Scenario, j.App),
		Rate:           rate,
		Warmup:         r.cfg.Warmup,
		Duration:       r.cfg.Duration,
		Timeout:        r.cfg.Timeout,
		MaxConnections: r.cfg.MaxConnections,
		Observe:        wl.Observe,
		Raw:            raw,
		Progress:       progress,
	}
}

// attack runs the load while the app's sources and PostgreSQL are
// watched, and returns what they recorded with what the attack cost the
// runner itself, which the ledger books for the report's overhead figures.
func (r *runner) attack(ctx context.Context, wl *scenario.Workload, opts load.Options, src cost.Sources) (*load.Outcome, map[string]sampler.Series, cost.Usage, error) {
	stop := r.ledger.Watch(cost.Watchers(src, r.cfg.SampleInterval, r.dbPID), opts.Warmup+opts.Duration)
	out, err := load.Attack(ctx, wl.Targeter(), opts)
	var sent uint64
	if out != nil {
		sent = out.Sent
	}
	series, self := stop(sent)
	return out, series, self, err
}
