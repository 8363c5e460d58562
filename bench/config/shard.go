package config

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"crudbench/bench/barrier"
	"crudbench/bench/load"
	"crudbench/bench/results"
)

// DefaultShardGap is the allowance in every slot of a sharded run for the
// work between two attacks: logging in, removing a write run's rows,
// counting statements, writing samples. Two seconds of that are usual on a
// busy machine; the rest is margin, since a shard that reaches its slot
// late skips the run.
const DefaultShardGap = 5 * time.Second

// DefaultBarrierTimeout bounds every wait at the start barrier.
const DefaultBarrierTimeout = 10 * time.Minute

// shardFlags holds -shard, -start-at, -shard-gap, -barrier and
// -barrier-timeout as parsed.
type shardFlags struct {
	shard, startAt, barrier *string
	gap, barrierTimeout     *time.Duration
}

// defineShardFlags declares the flags of a sharded run on fs.
func defineShardFlags(fs *flag.FlagSet) shardFlags {
	return shardFlags{
		shard:          fs.String("shard", "", "send shard `i/N` of the load (0 ≤ i < N) as one of N runners sharing one schedule; needs -attach and -start-at"),
		startAt:        fs.String("start-at", "", "with -shard: the shared start `time` of the first run, RFC 3339 with zone, e.g. 2026-03-01T12:00:00Z; the same for every shard and in the future"),
		gap:            fs.Duration("shard-gap", DefaultShardGap, "with -shard: time in every run's slot, after warm-up, duration and cool-down, for the work between attacks"),
		barrier:        fs.String("barrier", "", "with -shard, instead of -start-at: a `folder` every shard sees (a shared volume), where the shards set their start together once every shard is ready (after shard 0's validation)"),
		barrierTimeout: fs.Duration("barrier-timeout", DefaultBarrierTimeout, "with -barrier: how long shard 0 waits for the other shards before it starts without them, and they wait for shard 0"),
	}
}

// readShard sets c.Shard, c.ShardGap and c.Barrier from the flags,
// checking them against the rest of c (lists, capacity and profiling
// already read) and the time now.
func (c *Config) readShard(v shardFlags, set map[string]bool, now time.Time) []error {
	c.ShardGap = *v.gap
	if *v.shard == "" {
		var errs []error
		for _, name := range []string{"start-at", "shard-gap", "barrier", "barrier-timeout"} {
			if set[name] {
				errs = append(errs, fmt.Errorf("-%s only applies with -shard", name))
			}
		}
		return errs
	}
	s, err := parseShard(*v.shard)
	if err != nil {
		return []error{err}
	}
	switch {
	case *v.barrier != "" && *v.startAt != "":
		return []error{errors.New("-barrier sets the shared start: leave -start-at out")}
	case *v.barrier != "":
		if *v.barrierTimeout <= 0 {
			return []error{errors.New("-barrier-timeout must be above zero")}
		}
		c.Barrier = &barrier.Barrier{Dir: *v.barrier, Index: s.Index, Count: s.Count, Timeout: *v.barrierTimeout}
	case set["barrier-timeout"]:
		return []error{errors.New("-barrier-timeout only applies with -barrier")}
	default:
		if s.Start, err = parseStartAt(*v.startAt, now); err != nil {
			return []error{err}
		}
	}
	c.Shard = &s
	return c.checkShard()
}

// parseShard reads -shard i/N.
func parseShard(value string) (load.Shard, error) {
	is, ns, ok := strings.Cut(value, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	switch {
	case !ok || ierr != nil || nerr != nil:
		return load.Shard{}, fmt.Errorf("-shard %q: want i/N, e.g. 0/2 for the first of two runners", value)
	case n < 2:
		return load.Shard{}, fmt.Errorf("-shard %q: N must be at least 2 (one runner needs no -shard)", value)
	case i < 0 || i >= n:
		return load.Shard{}, fmt.Errorf("-shard %q: i must be 0 to %d", value, n-1)
	}
	return load.Shard{Index: i, Count: n}, nil
}

// parseStartAt reads -start-at, which must lie after now.
func parseStartAt(value string, now time.Time) (time.Time, error) {
	if value == "" {
		return time.Time{}, errors.New("-shard needs -start-at or -barrier: the shared start time of every shard, e.g. -start-at " + now.Add(2*time.Minute).UTC().Format(time.RFC3339))
	}
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return time.Time{}, fmt.Errorf("-start-at %q: want an RFC 3339 time with zone, e.g. %s", value, now.Add(2*time.Minute).UTC().Format(time.RFC3339))
	}
	if !t.After(now) {
		return time.Time{}, fmt.Errorf("-start-at %s has passed (it is %s): give every shard the same later time", value, now.UTC().Format(time.RFC3339))
	}
	return t, nil
}

// checkShard checks that a sharded run can share one schedule: it loads
// running apps every shard reaches, at fixed rates.
func (c Config) checkShard() []error {
	var errs []error
	if len(c.Attach) == 0 {
		errs = append(errs, errors.New("-shard needs -attach: every shard must load the same running apps"))
	}
	if c.Capacity.Search {
		errs = append(errs, errors.New("-shard cannot run -capacity: the search's rates follow earlier probes' answers, which one shared schedule cannot know in advance"))
	}
	if c.ValidateOnly {
		errs = append(errs, errors.New("-shard splits load, and -validate-only sends none: leave -shard out"))
	}
	if c.ProfileCPU && c.Shard.Index != 0 {
		errs = append(errs, errors.New("-profile-cpu only on shard 0: an app serves one CPU profile at a time, and one per run is enough"))
	}
	if c.ShardGap <= 0 {
		errs = append(errs, errors.New("-shard-gap must be above zero"))
	}
	return errs
}

// Slots is the time table of a sharded plan, which every shard derives
// from the same flags.
func (c Config) Slots() load.Slots {
	return load.Slots{Start: c.Shard.Start, Warmup: c.Warmup, Duration: c.Duration, Cooldown: c.Cooldown, Gap: c.ShardGap}
}

// ShardSettings records the shard in a run's settings.
func (c Config) ShardSettings() *results.Shard {
	if c.Shard == nil {
		return nil
	}
	return &results.Shard{Index: c.Shard.Index, Count: c.Shard.Count, StartAt: c.Shard.Start, Gap: results.Duration(c.ShardGap)}
}
