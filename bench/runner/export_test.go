package runner

import (
	"context"
	"time"
)

// Plan exposes the run order to the external tests.
func Plan(profiles, scenarios, apps []string, repeat int) [][4]any {
	var out [][4]any
	for _, j := range plan(profiles, scenarios, apps, repeat) {
		out = append(out, [4]any{j.profile, j.scenario, j.app, j.repeat})
	}
	return out
}

// WaitSlot exposes how a shard waits for a run's slot.
func WaitSlot(ctx context.Context, c Config, start time.Time) string { return c.waitSlot(ctx, start) }

// SourceCommit exposes how the report names the measured commit.
var SourceCommit = sourceCommit

// OtherLoad exposes how the runner finds other work on the machine during
// a capacity search.
var OtherLoad = otherLoad
