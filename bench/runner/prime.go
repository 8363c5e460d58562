package runner

import (
	"context"
	"fmt"
	"io"

	"crudbench/bench/load"
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
func (p *fixedProfiles) prime(ctx context.Context, j load.Job, rate float64) error {
	bg := context.WithoutCancel(ctx)
	pj := j
	pj.Profile = "prime"
	wl, tag, err := p.m.workload(ctx, pj)
	if err != nil {
		return err
	}
	var vacanciesBefore int64 = -1
	if writesRows(j.Scenario) {
		vacanciesBefore = p.m.db.VacancyCount(bg)
	}
	opts := load.Options{
		Name:           fmt.Sprintf("prime/%s/%s", j.Scenario, j.App),
		Rate:           max(primeShare*rate, 1),
		Duration:       p.cfg.Prime,
		Timeout:        p.cfg.Timeout,
		MaxConnections: p.cfg.MaxConnections,
		Observe:        wl.Observe,
		Raw:            io.Discard,
	}
	if p.cfg.ClosedLoop() {
		// Its own clients: a closed loop builds no queue to fear.
		opts.Rate, opts.Clients = 0, p.cfg.Clients
	}
	err = p.m.load.Prime(ctx, j.App, wl, opts)
	if writesRows(j.Scenario) {
		if cerr := p.m.db.CleanupWrites(bg, wl, tag, vacanciesBefore); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}
