package runner

import (
	"context"
	"fmt"
	"io"

	"crudbench/bench/grpcwire"
	"crudbench/bench/load"
	"crudbench/bench/scenario"
)

// The priming pass before an app's first measured run of a scenario: a
// few seconds (-prime) at a quarter of the run's rate, discarded, then the
// cool-down. A young process pays for its cold code (a JIT that has not
// compiled the handlers yet, a pool that has not opened its connections,
// caches not filled) in its first hundreds of requests; at the run's full
// rate that cost queues requests faster than they drain, and a queue the
// warm-up has not drained when the window begins is counted in it. At a
// quarter of the rate the same requests cannot build a queue worth the
// name, and the cool-down lets whatever they left end.
const primeShare = 0.25

// prime sends scenario j.Scenario to j.App at primeShare of rate for
// -prime and discards the answers, removing any rows it wrote. It
// returns what went wrong, which the caller notes: the measured run then
// runs as it would have without it.
func (r *runner) prime(ctx context.Context, j load.Job, rate float64) error {
	u := r.apps[j.App]
	bg := context.WithoutCancel(ctx)
	pj := j
	pj.Profile = "prime"
	wl, tag, err := r.workload(ctx, pj, u)
	if err != nil {
		return err
	}
	var vacanciesBefore int64 = -1
	if writesRows(j.Scenario) {
		vacanciesBefore = r.vacancyCount(bg)
	}
	opts := load.Options{
		Name:           fmt.Sprintf("prime/%s/%s", j.Scenario, j.App),
		Rate:           max(primeShare*rate, 1),
		Duration:       r.cfg.Prime,
		Timeout:        r.cfg.Timeout,
		MaxConnections: r.cfg.MaxConnections,
		Observe:        wl.Observe,
		Raw:            io.Discard,
	}
	if u != nil && u.app != nil && u.app.Kind == scenario.KindGRPC {
		wire := grpcwire.New(r.cfg.GRPCConns)
		defer wire.Close()
		opts.Transport = wire
	}
	_, err = load.Attack(ctx, wl.Targeter(), opts)
	if writesRows(j.Scenario) {
		if cerr := r.cleanupWrites(bg, wl, tag, vacanciesBefore); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}
