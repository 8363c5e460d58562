package runner

import (
	"fmt"
	"time"

	"crudbench/bench/load"
	"crudbench/bench/results"
)

// SlotStartOf is when the run of profile, scenario and app (its first
// repeat) started on every shard of a sharded run whose settings are s:
// the slot SlotStart gives its place in the plan. bench merge places the
// merged window there.
func SlotStartOf(s results.Settings, profile, scenario, app string) (time.Time, error) {
	if s.Shard == nil {
		return time.Time{}, fmt.Errorf("not a sharded run: it has no slots")
	}
	c := Config{
		Warmup: time.Duration(s.Warmup), Duration: time.Duration(s.Duration), Cooldown: time.Duration(s.Cooldown),
		ShardGap: time.Duration(s.Shard.Gap),
		Shard:    &load.Shard{Index: s.Shard.Index, Count: s.Shard.Count, Start: s.Shard.StartAt},
	}
	for j, jb := range plan(s.Profiles, s.Scenarios, s.Apps, s.Repeat) {
		if jb.profile == profile && jb.scenario == scenario && jb.app == app && jb.repeat == 1 {
			return c.SlotStart(j), nil
		}
	}
	return time.Time{}, fmt.Errorf("%s %s %s is not in the plan of profiles %v, scenarios %v and apps %v", profile, scenario, app, s.Profiles, s.Scenarios, s.Apps)
}
