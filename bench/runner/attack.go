package runner

import (
	"context"
	"fmt"
	"io"
	"maps"
	"sync"
	"time"

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

// attack runs the load while the samplers watch, and books what the run
// cost the runner itself and what sampling added, for the report's
// overhead figures.
//
// Only the /proc Samplers count in the sampler's overhead (their own
// thread's CPU); the metrics Scrapers' cost is in the runner's own CPU.
func (r *runner) attack(ctx context.Context, wl *scenario.Workload, opts load.Options, samplers []watcher) (*load.Outcome, map[string]sampler.Series, error) {
	self := selfUsage{rssStart: selfRSS()}
	cpu0, wall0 := cpuTime(), time.Now()
	for _, smp := range samplers {
		smp.Start()
	}
	out, err := load.Attack(ctx, wl.Targeter(), opts)
	series := map[string]sampler.Series{}
	for i, stopped := range stopAll(samplers) {
		maps.Copy(series, stopped)
		if s, ok := samplers[i].(*sampler.Sampler); ok {
			// The samplers run side by side: their costs add up.
			r.overheadCPU += s.Overhead() * (opts.Warmup + opts.Duration).Seconds()
		}
	}
	self.cpu, self.wall, self.rssEnd = cpuTime()-cpu0, time.Since(wall0), selfRSS()
	r.self = append(r.self, self)
	r.overheadWall += (opts.Warmup + opts.Duration).Seconds()
	if out != nil {
		r.sent += out.Sent
	}
	return out, series, err
}

// stopAll stops the watchers side by side and returns what each recorded:
// a Scraper's Stop waits for its next scrape, and an app's replicas each
// have one, which one after another would take a second each.
func stopAll(ws []watcher) []map[string]sampler.Series {
	out := make([]map[string]sampler.Series, len(ws))
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Go(func() { out[i] = w.Stop() })
	}
	wg.Wait()
	return out
}
