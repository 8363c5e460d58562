// Package merge joins the results folders of the shards of one run (N
// runners that each sent every N-th request of one shared schedule, with
// -shard i/N and -start-at) into the results of one runner: every run's
// raw vegeta results replayed into the window of the whole run, the
// verdicts judged again on the merged numbers, and the costs divided by
// the requests of all shards. The reports are then written from the
// merged results as the runner writes them.
package merge

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"crudbench/bench/results"
)

// Merge reads the results folders dirs, which must be all the shards of
// one run, and writes the merged raw results, with shard 0's samples and
// profiles, into a new results folder under out named for now (as the
// runner names its folders). It returns the merged run and that folder;
// writing the reports into it is the caller's. It writes nothing when the
// folders are refused or a raw file cannot be merged.
func Merge(dirs []string, out string, now time.Time) (*results.Run, string, error) {
	shards, err := readShards(dirs)
	if err != nil {
		return nil, "", err
	}
	dir := results.Folder(out, now, nil)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, "", fmt.Errorf("results folder: %w", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("results folder: %w (give another -out, or merge again a second later)", err)
	}
	run := newRun(shards)
	for k := range shards[0].run.Results {
		res, err := mergeResult(shards, k, dir)
		if err != nil {
			// Half a merge is no results folder: leave none behind.
			return nil, "", errors.Join(err, os.RemoveAll(dir))
		}
		run.Results = append(run.Results, res)
	}
	return run, dir, nil
}

// newRun is the merged run without its results: shard 0's settings,
// environment, validations (only shard 0 validates) and stack facts, the
// span of all shards, their load generators' cost and every shard's notes.
func newRun(shards []shard) *results.Run {
	own := shards[0].run
	run := *own
	run.Settings.Shard = nil
	run.Settings.Shards = len(shards)
	run.Results = []results.Result{}
	run.Capacities = nil
	for _, s := range shards[1:] {
		if s.run.StartedAt.Before(run.StartedAt) {
			run.StartedAt = s.run.StartedAt
		}
		if s.run.FinishedAt.After(run.FinishedAt) {
			run.FinishedAt = s.run.FinishedAt
		}
	}
	cost, costNote := runnerCost(shards)
	run.Runner = cost
	run.Notes = append(slices.Clone(own.Notes), notes(shards)...)
	run.Notes = append(run.Notes, costNote, fmt.Sprintf(
		"Merged from %d shards (bench merge): each runner sent one request in %d of one schedule from %s; the window of each run holds every shard's requests, numbered as one runner numbers them. Validation, the app's and PostgreSQL's CPU and memory, the samples and the CPU profiles are shard 0's; statements per request divide shard 0's count by every shard's successful requests.",
		len(shards), len(shards), own.Settings.Shard.StartAt.Format(time.RFC3339)))
	return &run
}

// notes are the other shards' notes that shard 0 does not have, each
// saying which shard it came from.
func notes(shards []shard) []string {
	var out []string
	for _, s := range shards[1:] {
		for _, n := range s.run.Notes {
			if !slices.Contains(shards[0].run.Notes, n) {
				out = append(out, fmt.Sprintf("Shard %d: %s", s.run.Settings.Shard.Index, n))
			}
		}
	}
	return out
}

// mergeResult merges the k-th result of shard 0 with the other shards'
// results of the same run.
func mergeResult(shards []shard, k int, dir string) (results.Result, error) {
	ps, err := parts(shards, k)
	if err != nil {
		return results.Result{}, err
	}
	if r, ok := unmeasured(ps, rateOf(shards[0].run.Settings, ps[0])); ok {
		return r, nil
	}
	w, err := window(shards[0].run.Settings, ps[0])
	if err != nil {
		return results.Result{}, err
	}
	return measured(shards, ps, w, dir)
}
