package runner

import (
	"context"
	"fmt"
	"io"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/grpcwire"
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

// attack runs the load on app while its sources and PostgreSQL are
// watched, and returns what they recorded with what the attack cost the
// runner itself, which the ledger books for the report's overhead figures.
// A grpc app's load goes over connections of its own, -grpc-conns of them,
// opened during the warm-up and closed after the attack, as vegeta's are
// for the other kinds.
func (r *runner) attack(ctx context.Context, app string, wl *scenario.Workload, opts load.Options, src cost.Sources) (*load.Outcome, map[string]sampler.Series, cost.Usage, error) {
	if u := r.apps[app]; u != nil && u.app != nil && u.app.Kind == scenario.KindGRPC {
		wire := grpcwire.New(r.cfg.GRPCConns)
		defer wire.Close()
		opts.Transport = wire
	}
	stop := r.ledger.Watch(cost.Watchers(src, r.cfg.SampleInterval, r.dbPID), opts.Warmup+opts.Duration)
	out, err := load.Attack(ctx, wl.Targeter(), opts)
	var sent uint64
	var end time.Time
	if out != nil {
		sent = out.Sent
		if !out.Interrupted {
			end = out.Window.End
		}
	}
	series, self := stop(sent, end)
	return out, series, self, err
}
