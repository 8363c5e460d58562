package runner

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// targetPostgres names the sampler's PostgreSQL series.
const targetPostgres = "postgres"

// DBSampleInterval is the shortest interval at which PostgreSQL is sampled.
// The server is a tree of processes — a backend per pooled connection of
// every app, some sixty in all — and reading all of them ten times a second
// costs several percent of a core, far above the sampler's 1% budget. Its
// CPU is only reported as means over a window, which one sample a second
// serves as well.
const DBSampleInterval = time.Second

// writeSamples writes the app's series to name and PostgreSQL's next to
// it; an app's replicas each to a file of their own next to it too
// (<run>.replica1.csv, …), since no series of the app's is theirs summed.
func (r *runner) writeSamples(series map[string]sampler.Series, src sources, name string) error {
	write := func(ser sampler.Series, path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := ser.WriteCSV(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	path := filepath.Join(r.dir, filepath.FromSlash(name))
	var errs []error
	if ser, ok := series[src.app]; ok {
		errs = append(errs, write(ser, path))
	} else {
		// Keep the file the result names, empty but for the header, so
		// the report can tell "not visible" from "lost".
		errs = append(errs, write(sampler.Series{}, path))
	}
	if src.replicated() {
		for i, file := range results.ReplicaSamplesFiles(name, len(src.scrapes)) {
			errs = append(errs, write(series[src.scrapes[i].series], filepath.Join(r.dir, filepath.FromSlash(file))))
		}
	}
	if ser, ok := series[targetPostgres]; ok {
		errs = append(errs, write(ser, filepath.Join(r.dir, filepath.FromSlash(results.PostgresSamplesFile(name)))))
	}
	return errors.Join(errs...)
}

// watcher records series during an attack: a /proc Sampler or a metrics
// Scraper.
type watcher interface {
	Start()
	Stop() map[string]sampler.Series
}

// samplersFor makes the watchers of one run: the app's process when it is
// read from /proc, its metrics (each replica's) when known, and PostgreSQL's
// process tree at its own, slower interval.
func (r *runner) samplersFor(src sources) []watcher {
	var ws []watcher
	if src.pid > 0 {
		ws = append(ws, sampler.New(r.cfg.SampleInterval, sampler.Target{Name: src.app, PID: src.pid}))
	}
	for _, s := range src.scrapes {
		ws = append(ws, sampler.NewScraper(s.series, s.url, r.cfg.SampleInterval))
	}
	if r.dbPID > 0 {
		ws = append(ws, sampler.New(max(r.cfg.SampleInterval, DBSampleInterval),
			sampler.Target{Name: targetPostgres, PID: r.dbPID, Tree: true}))
	}
	return ws
}
