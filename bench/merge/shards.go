package merge

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"crudbench/bench/results"
)

// shard is one runner's results folder and what its results.json says.
type shard struct {
	dir string
	run *results.Run
}

// readShards reads the results.json of every folder and returns the shards
// ordered by index, after checking that they are all the shards of one
// run.
func readShards(dirs []string) ([]shard, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no folders to merge: name the results folders of every shard of the run")
	}
	shards := make([]shard, 0, len(dirs))
	for _, dir := range dirs {
		run, err := results.Read(filepath.Join(dir, results.JSONFile))
		if err != nil {
			return nil, fmt.Errorf("%s: %w (name a shard's results folder, the timestamped one)", dir, err)
		}
		if run.Settings.Shard == nil {
			return nil, fmt.Errorf("%s: not a shard: its results.json has no settings.shard (the run was not made with -shard i/N)", dir)
		}
		shards = append(shards, shard{dir: dir, run: run})
	}
	if err := checkShards(shards); err != nil {
		return nil, err
	}
	if r := shards[0].run.Settings.Repeat; r > 1 {
		return nil, fmt.Errorf("the shards ran -repeat %d: merge joins runs of one repeat each (a folded result keeps only one repeat's costs); run the shards with -repeat 1, once per repeat, and merge each", r)
	}
	slices.SortFunc(shards, func(a, b shard) int { return a.run.Settings.Shard.Index - b.run.Settings.Shard.Index })
	return shards, nil
}

// checkShards refuses folders that are not exactly the shards 0..N-1 of
// one run, given once each, with the same settings.
func checkShards(shards []shard) error {
	first := shards[0]
	n := first.run.Settings.Shard.Count
	seen := map[int]string{}
	for _, s := range shards {
		sh := s.run.Settings.Shard
		switch {
		case sh.Count != n:
			return fmt.Errorf("%s: shard %d of %d, but %s is a shard of %d: merge the shards of one run", s.dir, sh.Index, sh.Count, first.dir, n)
		case !sh.StartAt.Equal(first.run.Settings.Shard.StartAt):
			return fmt.Errorf("%s: -start-at %s, but %s started at %s: merge the shards of one run", s.dir, sh.StartAt, first.dir, first.run.Settings.Shard.StartAt)
		case sh.Gap != first.run.Settings.Shard.Gap:
			return fmt.Errorf("%s: -shard-gap %s, but %s had %s: merge the shards of one run", s.dir, time.Duration(sh.Gap), first.dir, time.Duration(first.run.Settings.Shard.Gap))
		case sh.Index < 0 || sh.Index >= n:
			return fmt.Errorf("%s: shard index %d is outside 0..%d", s.dir, sh.Index, n-1)
		}
		if other, dup := seen[sh.Index]; dup {
			return fmt.Errorf("%s and %s are both shard %d of %d: give each shard's folder once", other, s.dir, sh.Index, n)
		}
		seen[sh.Index] = s.dir
		if err := sameSettings(first, s); err != nil {
			return err
		}
	}
	for i := range n {
		if _, ok := seen[i]; !ok {
			return fmt.Errorf("shard %d of %d is missing: name the results folders of all %d shards (given: %d)", i, n, n, len(shards))
		}
	}
	return nil
}

// sameSettings refuses a shard whose load differs from the first's: the
// merge adds up requests of one schedule, which the rates, timings and
// plan define.
func sameSettings(first, s shard) error {
	a, b := first.run.Settings, s.run.Settings
	for _, f := range []struct {
		name string
		x, y any
	}{
		{"profiles", a.Profiles, b.Profiles},
		{"scenarios", a.Scenarios, b.Scenarios},
		{"apps", a.Apps, b.Apps},
		{"rates", a.Rates, b.Rates},
		{"warmup", time.Duration(a.Warmup), time.Duration(b.Warmup)},
		{"duration", time.Duration(a.Duration), time.Duration(b.Duration)},
		{"cooldown", time.Duration(a.Cooldown), time.Duration(b.Cooldown)},
		{"repeat", a.Repeat, b.Repeat},
		{"timeout", time.Duration(a.Timeout), time.Duration(b.Timeout)},
		{"max connections", a.MaxConnections, b.MaxConnections},
		{"SLO p99", time.Duration(a.SLOP99), time.Duration(b.SLOP99)},
	} {
		if !reflect.DeepEqual(f.x, f.y) {
			return fmt.Errorf("%s: %s %v differ from %s's %v: every shard must be run with the same settings", s.dir, f.name, f.y, first.dir, f.x)
		}
	}
	return nil
}
