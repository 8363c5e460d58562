package runner

import "fmt"

// job is one measured run: a profile, scenario, app and repeat.
type job struct {
	profile, scenario, app string
	repeat                 int // 1-based
}

// plan lists the runs in order: profiles, then scenarios, then repeats;
// within each block the apps take turns going first, so none is always
// measured on a machine that has just cooled down (or just warmed up).
func plan(profiles, scenarios, apps []string, repeat int) []job {
	var jobs []job
	block := 0
	for _, p := range profiles {
		for _, s := range scenarios {
			for rep := 1; rep <= repeat; rep++ {
				for i := range apps {
					jobs = append(jobs, job{p, s, apps[(block+i)%len(apps)], rep})
				}
				block++
			}
		}
	}
	return jobs
}

// fileBase names a run's files.
func (r *runner) fileBase(j job) string {
	base := fmt.Sprintf("%s-%s-%s", j.profile, j.scenario, j.app)
	if r.cfg.Repeat > 1 {
		base += fmt.Sprintf("-r%d", j.repeat)
	}
	return base
}
