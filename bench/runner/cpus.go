package runner

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"crudbench/bench/cpuset"
	"crudbench/bench/results"
)

// pinRunner moves every thread of the runner onto the rest side's CPUs
// (-cpus), with GOMAXPROCS to match, and gives it its own CPUs back at
// tear-down. Without a rest side it does nothing.
func (r *runner) pinRunner() error {
	rest := r.cfg.CPUs.Rest
	if len(rest) == 0 {
		return nil
	}
	own, err := cpuset.Allowed(os.Getpid())
	if err != nil {
		return err
	}
	procs := runtime.GOMAXPROCS(0)
	if err := cpuset.PinProcess(rest); err != nil {
		return err
	}
	r.undo(func() error {
		err := cpuset.PinProcess(own)
		runtime.GOMAXPROCS(procs)
		return err
	})
	r.con.printf("The runner and its load generator run on CPUs %s (GOMAXPROCS %d).\n", rest, runtime.GOMAXPROCS(0))
	return nil
}

// readCPUs records the CPUs every process of the run had, read from the
// processes themselves, says them on the console, and notes what makes
// them less than a clean split: an app that shares CPUs with the runner,
// a PostgreSQL the runner did not start.
func (r *runner) readCPUs(run *results.Run) {
	cpus := &results.CPUs{Isolated: r.cfg.CPUs.Isolated(), Auto: r.cfg.CPUs.Auto, Apps: map[string]string{}}
	if cpus.Isolated {
		cpus.AppCores = len(r.cfg.CPUs.App)
	}
	runner, err := cpuset.Allowed(os.Getpid())
	if err == nil {
		cpus.Runner = runner.String()
	}
	if r.dbPID > 0 {
		if s, err := cpuset.Allowed(r.dbPID); err == nil {
			cpus.Postgres = s.String()
		}
	}
	broker := ""
	if r.broker.node != nil {
		if s, err := cpuset.Allowed(r.broker.node.PID()); err == nil {
			cpus.Broker = s.String()
			broker = "; RabbitMQ " + cpus.Broker
		}
	}
	// Started apps sharing the runner's CPUs were asked for (-cpus
	// shared), and the note below says so once.
	warn := r.cfg.Mode() == "attach" || cpus.Isolated
	var lines []string
	pids := map[string]int{}
	for _, name := range r.cfg.Apps {
		if u := r.apps[name]; u != nil {
			pids[name] = u.pid
		}
	}
	names := slices.Concat(r.cfg.Apps, r.pageProcesses(pids))
	for _, name := range names {
		pid := pids[name]
		if pid == 0 {
			continue
		}
		s, err := cpuset.Allowed(pid)
		if err != nil {
			continue
		}
		cpus.Apps[name] = s.String()
		lines = append(lines, fmt.Sprintf("%s %s", name, s))
		if both := s.And(runner); warn && len(both) > 0 {
			r.con.printf("Warning: %s shares CPUs %s with the runner: the load generator takes CPU from it.\n", name, both)
			r.note(fmt.Sprintf("%s shared CPUs %s with the runner (its CPUs %s, the runner's %s): the load generator and the app took CPU from each other. Start it on CPUs of its own (e.g. taskset -c) and keep the runner off them with -cpus rest=LIST.", name, both, s, runner))
		}
	}
	r.con.printf("CPUs: apps %s; PostgreSQL %s%s; runner %s.\n", orUnknown(strings.Join(lines, ", ")), orUnknown(cpus.Postgres), broker, orUnknown(cpus.Runner))
	shared := "The apps, PostgreSQL and the runner"
	if r.cfg.Mode() == "database" {
		r.note(fmt.Sprintf("PostgreSQL at DATABASE_URL is not the runner's to place: -cpus does not set its CPUs; its postmaster ran on CPUs %s.", orUnknown(cpus.Postgres)))
		shared = "The apps and the runner"
	}
	if r.cfg.Mode() != "attach" && !cpus.Isolated {
		r.note(fmt.Sprintf("%s shared the CPUs (%s): an app's figures are what the others left it.", shared, orUnknown(cpus.Runner)))
	}
	run.Settings.CPUs = cpus
}

// orUnknown is s, or "unknown" when empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
