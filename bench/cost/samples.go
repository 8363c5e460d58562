package cost

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
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

// WriteSamples writes the app's series to name (a Result's SamplesFile)
// in the results folder dir, and PostgreSQL's next to it; an app's
// replicas each to a file of their own next to it too (<run>.replica1.csv,
// …), since no series of the app's is theirs summed.
func WriteSamples(dir string, series map[string]sampler.Series, src Sources, name string) error {
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
	path := filepath.Join(dir, filepath.FromSlash(name))
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
			errs = append(errs, write(series[src.scrapes[i].series], filepath.Join(dir, filepath.FromSlash(file))))
		}
	}
	if ser, ok := series[targetPostgres]; ok {
		errs = append(errs, write(ser, filepath.Join(dir, filepath.FromSlash(results.PostgresSamplesFile(name)))))
	}
	return errors.Join(errs...)
}

// Watcher records series during an attack: a /proc Sampler or a metrics
// Scraper.
type Watcher interface {
	Start()
	Stop() map[string]sampler.Series
}

// Watchers makes the watchers of one run, every interval: the app's
// process (or process tree, AsTree) when it is read from /proc, its metrics (each replica's) when
// known, and PostgreSQL's process tree, dbPID (0 when not visible), at its
// own, slower interval.
func Watchers(src Sources, interval time.Duration, dbPID int) []Watcher {
	var ws []Watcher
	if src.pid > 0 {
		ws = append(ws, sampler.New(interval, sampler.Target{Name: src.app, PID: src.pid, Tree: src.tree}))
	}
	for _, s := range src.scrapes {
		ws = append(ws, sampler.NewScraper(s.series, s.url, interval))
	}
	if dbPID > 0 {
		ws = append(ws, sampler.New(max(interval, DBSampleInterval),
			sampler.Target{Name: targetPostgres, PID: dbPID, Tree: true}))
	}
	return ws
}

// stopAll stops the watchers side by side and returns what each recorded:
// a Scraper's Stop waits for its next scrape, and an app's replicas each
// have one, which one after another would take a second each.
func stopAll(ws []Watcher) []map[string]sampler.Series {
	out := make([]map[string]sampler.Series, len(ws))
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Go(func() { out[i] = w.Stop() })
	}
	wg.Wait()
	return out
}
