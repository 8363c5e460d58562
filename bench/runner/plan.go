package runner

import (
	"fmt"

	"crudbench/bench/load"
)

// fileBase names a run's files.
func (r *runner) fileBase(j load.Job) string {
	base := fmt.Sprintf("%s-%s-%s", j.Profile, j.Scenario, j.App)
	if r.cfg.Repeat > 1 {
		base += fmt.Sprintf("-r%d", j.Repeat)
	}
	return base
}
