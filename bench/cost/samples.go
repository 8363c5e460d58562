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

// Names of the sampler's series besides the app's: PostgreSQL's process
// tree, the runner's own process, and the whole machine. The parentheses
// keep the last two apart from any app's name.
const (
	targetPostgres = "postgres"
	targetBroker   = "(broker)"
	targetQueue    = "(broker queue)"
	targetRunner   = "(runner)"
	targetMachine  = "(machine)"
)

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
	if ser, ok := series[targetBroker]; ok {
		errs = append(errs, write(ser, filepath.Join(dir, filepath.FromSlash(results.BrokerSamplesFile(name)))))
	}
	return errors.Join(errs...)
}

// Watcher records series during an attack: a /proc Sampler or a metrics
// Scraper.
type Watcher interface {
	Start()
	Stop() map[string]sampler.Series
}

// Watchers makes the watchers of one run: one Sampler, every interval,
// for the app's process (or process tree, AsTree) when it is read from
// /proc, PostgreSQL's process tree (dbPID, 0 when not visible), the
// runner's own process and the whole machine — one clock for all four, so that over a window the
// machine's busy cores are the others' sum plus what other processes
// used, and nothing is lost between them — and a Scraper for the app's
// metrics (each replica's) when known.
//
// PostgreSQL is read as often as the app: a tree of some sixty processes,
// each read from its CPU clock at every sample (a system call apiece), the
// postmaster's stat and children at every sample, every process's stat
// every sampler.TreeEvery samples, its memory every sampler.MemoryEvery.
func Watchers(src Sources, interval time.Duration, dbPID int) []Watcher {
	targets := []sampler.Target{
		{Name: targetRunner, PID: os.Getpid()},
		{Name: targetMachine, Machine: true},
	}
	if src.pid > 0 {
		targets = append(targets, sampler.Target{Name: src.app, PID: src.pid, Tree: src.tree})
	}
	if dbPID > 0 {
		targets = append(targets, sampler.Target{Name: targetPostgres, PID: dbPID, Tree: true})
	}
	if src.broker > 0 {
		targets = append(targets, sampler.Target{Name: targetBroker, PID: src.broker, Tree: true})
	}
	ws := []Watcher{sampler.New(interval, targets...)}
	if src.depth != nil {
		ws = append(ws, sampler.NewQueueReader(targetQueue, src.depth, interval))
	}
	for _, s := range src.scrapes {
		ws = append(ws, sampler.NewScraper(s.series, s.url, interval))
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
