package runner

import (
	"context"
	"fmt"
	"io"
	"time"

	"crudbench/bench/amqpwire"
	"crudbench/bench/cost"
	"crudbench/bench/grpcwire"
	"crudbench/bench/load"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
)

// attackOptions sets one run's attack from the configuration: its rate,
// or its clients in a closed loop (-model closed), timings and limits,
// where raw results go, and how progress is shown.
func (m *measurer) attackOptions(j load.Job, rate float64, wl *scenario.Workload, raw io.Writer, progress func(load.Progress)) load.Options {
	if m.cfg.ClosedLoop() {
		rate = 0
	}
	return load.Options{
		Name:           fmt.Sprintf("%s/%s/%s", j.Profile, j.Scenario, j.App),
		Rate:           rate,
		Clients:        m.cfg.Clients,
		Warmup:         m.cfg.Warmup,
		Duration:       m.cfg.Duration,
		Timeout:        m.cfg.Timeout,
		MaxConnections: m.cfg.MaxConnections,
		Observe:        wl.Observe,
		Raw:            raw,
		Progress:       progress,
	}
}

// Attack runs the load on app while its sources and PostgreSQL are
// watched, and returns what they recorded with what the attack cost the
// runner itself, which the ledger books for the report's overhead figures.
func (r *runner) Attack(ctx context.Context, app string, wl *scenario.Workload, opts load.Options, src cost.Sources) (*load.Outcome, map[string]sampler.Series, cost.Usage, error) {
	defer r.transport(app, &opts)()
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

// Prime runs the load on app unwatched, its answers discarded.
func (r *runner) Prime(ctx context.Context, app string, wl *scenario.Workload, opts load.Options) error {
	defer r.transport(app, &opts)()
	_, err := load.Attack(ctx, wl.Targeter(), opts)
	return err
}

// transport gives a grpc app's load connections of its own, -grpc-conns
// of them, and an amqp app's -amqp-conns connections to its broker,
// opened during the warm-up and closed after the attack (by the function
// it returns), as vegeta's are for the other kinds.
func (r *runner) transport(app string, opts *load.Options) (done func()) {
	u := r.apps[app]
	if u == nil || u.app == nil {
		return func() {}
	}
	switch u.app.Kind {
	case scenario.KindGRPC:
		wire := grpcwire.New(r.cfg.GRPCConns)
		opts.Transport = wire
		return func() { wire.Close() }
	case scenario.KindAMQP:
		wire := amqpwire.New(r.broker.url, r.cfg.AMQPConns)
		opts.Transport = wire
		return func() { wire.Close() }
	}
	return func() {}
}
