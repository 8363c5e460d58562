package load

import (
	"fmt"
	"time"

	"crudbench/bench/results"
)

// Job is one measured run of a plan: a profile, scenario, app and repeat.
type Job struct {
	Profile, Scenario, App string
	Repeat                 int // 1-based
	// Try is a capacity confirmation's number among those of its search,
	// from 1 (the runs after one that missed); 0 for every other run.
	Try int
}

// Plan lists the runs in order: profiles, then scenarios, then repeats;
// within each block the apps take turns going first, so none is always
// measured on a machine that has just cooled down (or just warmed up).
// Every shard of a sharded run, and bench merge after them, derive the
// schedule from this order.
func Plan(profiles, scenarios, apps []string, repeat int) []Job {
	var jobs []Job
	block := 0
	for _, p := range profiles {
		for _, s := range scenarios {
			for rep := 1; rep <= repeat; rep++ {
				for i := range apps {
					jobs = append(jobs, Job{Profile: p, Scenario: s, App: apps[(block+i)%len(apps)], Repeat: rep})
				}
				block++
			}
		}
	}
	return jobs
}

// Slots are the shared time table of a sharded plan: every run of it has
// a slot of the same length, its attack, the cool-down and a gap for the
// work between attacks, one after the other from Start.
type Slots struct {
	Start                           time.Time
	Warmup, Duration, Cooldown, Gap time.Duration
}

// Length is how long every run of the plan has.
func (s Slots) Length() time.Duration {
	return s.Warmup + s.Duration + s.Cooldown + s.Gap
}

// At is when run j of the plan (from 0, in plan order, repeats included)
// starts on every shard: the shared start plus the slots before it. Its
// schedule's request n is due (n+1)/rate later.
func (s Slots) At(j int) time.Time {
	return s.Start.Add(time.Duration(j) * s.Length())
}

// SlotOf is when the run of profile, scenario and app (its first repeat)
// started on every shard of a sharded run whose settings are s: the slot
// of its place in the plan. bench merge places the merged window there.
func SlotOf(s results.Settings, profile, scenario, app string) (time.Time, error) {
	if s.Shard == nil {
		return time.Time{}, fmt.Errorf("not a sharded run: it has no slots")
	}
	slots := Slots{
		Start:  s.Shard.StartAt,
		Warmup: time.Duration(s.Warmup), Duration: time.Duration(s.Duration), Cooldown: time.Duration(s.Cooldown),
		Gap: time.Duration(s.Shard.Gap),
	}
	for j, jb := range Plan(s.Profiles, s.Scenarios, s.Apps, s.Repeat) {
		if jb.Profile == profile && jb.Scenario == scenario && jb.App == app && jb.Repeat == 1 {
			return slots.At(j), nil
		}
	}
	return time.Time{}, fmt.Errorf("%s %s %s is not in the plan of profiles %v, scenarios %v and apps %v", profile, scenario, app, s.Profiles, s.Scenarios, s.Apps)
}
