package config_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"crudbench/bench/config"
	"crudbench/bench/load"
)

func TestParseShardFlags(t *testing.T) {
	future := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	at := future.Format(time.RFC3339)
	attach := []string{"-attach", "rest=http://localhost:8081"}
	sharded := func(args ...string) []string { return append(append([]string{}, attach...), args...) }

	t.Run("shard", func(t *testing.T) {
		cfg, err := config.Parse(sharded("-shard", "1/3", "-start-at", at, "-shard-gap", "7s"), env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		want := load.Shard{Index: 1, Count: 3, Start: future}
		if cfg.Shard == nil || cfg.Shard.Index != want.Index || cfg.Shard.Count != want.Count || !cfg.Shard.Start.Equal(want.Start) || cfg.ShardGap != 7*time.Second {
			t.Errorf("shard %+v, gap %v; want %+v and 7s", cfg.Shard, cfg.ShardGap, want)
		}
	})
	t.Run("zone", func(t *testing.T) {
		local := future.In(time.FixedZone("", 2*3600)).Format(time.RFC3339)
		cfg, err := config.Parse(sharded("-shard", "0/2", "-start-at", local), env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if !cfg.Shard.Start.Equal(future) || cfg.ShardGap != config.DefaultShardGap {
			t.Errorf("start %v, gap %v; want %v and the default gap", cfg.Shard.Start, cfg.ShardGap, future)
		}
	})
	t.Run("barrier", func(t *testing.T) {
		cfg, err := config.Parse(sharded("-shard", "1/3", "-barrier", "/results/run/barrier", "-barrier-timeout", "2m"), env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		b := cfg.Barrier
		if b == nil || b.Dir != "/results/run/barrier" || b.Index != 1 || b.Count != 3 || b.Timeout != 2*time.Minute || !cfg.Shard.Start.IsZero() {
			t.Errorf("barrier %+v, shard %+v; want shard 1 of 3 at /results/run/barrier for 2m, its start not yet set", b, cfg.Shard)
		}
	})
	t.Run("unsharded", func(t *testing.T) {
		cfg, err := config.Parse(attach, env(nil), io.Discard)
		if err != nil || cfg.Shard != nil {
			t.Errorf("shard %+v, err %v; want none", cfg.Shard, err)
		}
	})

	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	for _, tt := range []struct {
		name string
		args []string
		err  string
	}{
		{"not i/N", sharded("-shard", "1", "-start-at", at), "want i/N"},
		{"not numbers", sharded("-shard", "a/b", "-start-at", at), "want i/N"},
		{"one shard", sharded("-shard", "0/1", "-start-at", at), "N must be at least 2"},
		{"index too high", sharded("-shard", "2/2", "-start-at", at), "i must be 0 to 1"},
		{"negative index", sharded("-shard", "-1/2", "-start-at", at), "i must be 0 to 1"},
		{"no start", sharded("-shard", "0/2"), "-shard needs -start-at or -barrier"},
		{"barrier and start", sharded("-shard", "0/2", "-start-at", at, "-barrier", "b"), "leave -start-at out"},
		{"barrier without shard", sharded("-barrier", "b"), "-barrier only applies with -shard"},
		{"barrier timeout without barrier", sharded("-shard", "0/2", "-start-at", at, "-barrier-timeout", "1m"), "-barrier-timeout only applies with -barrier"},
		{"no barrier timeout", sharded("-shard", "0/2", "-barrier", "b", "-barrier-timeout", "0s"), "-barrier-timeout must be above zero"},
		{"no zone", sharded("-shard", "0/2", "-start-at", "2030-01-01T12:00:00"), "RFC 3339 time with zone"},
		{"start passed", sharded("-shard", "0/2", "-start-at", past), "has passed"},
		{"start without shard", sharded("-start-at", at), "-start-at only applies with -shard"},
		{"gap without shard", sharded("-shard-gap", "3s"), "-shard-gap only applies with -shard"},
		{"no gap", sharded("-shard", "0/2", "-start-at", at, "-shard-gap", "0s"), "-shard-gap must be above zero"},
		{"not attached", []string{"-shard", "0/2", "-start-at", at}, "-shard needs -attach"},
		{"capacity", sharded("-shard", "0/2", "-start-at", at, "-capacity"), "-shard cannot run -capacity"},
		{"validate only", sharded("-shard", "0/2", "-start-at", at, "-validate-only"), "-validate-only sends none"},
		{"profile off shard 0", sharded("-shard", "1/2", "-start-at", at, "-profile-cpu"), "-profile-cpu only on shard 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse(tt.args, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
	if _, err := config.Parse(sharded("-shard", "0/2", "-start-at", at, "-profile-cpu"), env(nil), io.Discard); err != nil {
		t.Errorf("-profile-cpu on shard 0: %v", err)
	}
}
