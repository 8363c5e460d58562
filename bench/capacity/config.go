package capacity

import (
	"errors"
	"fmt"
	"time"

	"crudbench/bench/results"
)

// Config is how a search runs.
type Config struct {
	// SLO judges every probe and confirmation (results.CapacitySLO).
	SLO results.SLO

	// Start is the first rate of the ramp; each next ramp step is Growth
	// times the last, never above Max.
	Start, Growth, Max float64
	// Precision ends the bisection: once the lowest missing rate is within
	// (1+Precision) of the highest met one.
	Precision float64

	// Cores is the number of CPUs of the machine, and AppCores how many of
	// them the app can use (its GOMAXPROCS when known, else Cores): the
	// stop reason judges CPU against them.
	Cores, AppCores int
	// RestCores is how many CPUs PostgreSQL and the runner had to
	// themselves, apart from the app's (-cpus), or zero when they shared
	// them (or PostgreSQL is not the runner's): their CPU together is then
	// judged against them, since filling them limits the app as surely as
	// filling its own.
	RestCores int
	// AppReplicas is the number of processes the app runs as behind one
	// load balancer; 0 or 1 for one. With more, a probe's app CPU is the
	// replicas' sum, on cores the runner does not know (they may be on
	// other machines): the app's CPU is stated but not judged, and the
	// machine's CPU is judged as when the app's is not available, since
	// it need not be spent on this machine.
	AppReplicas int

	// MissPause is how long the search waits after a probe that missed
	// badly (MissedBadly) before the next, so that what it left behind
	// does not spill into the next probe; zero waits not at all. The
	// caller's own pause before every probe comes on top.
	MissPause time.Duration
}

// Validate reports every setting of c that would make a search meaningless
// or endless.
func (c Config) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(c.SLO.P99 > 0, "SLO p99 %v: must be above zero", c.SLO.P99)
	check(c.SLO.MinSuccessRatio > 0 && c.SLO.MinSuccessRatio <= 1, "minimum success ratio %v: must be in (0, 1]", c.SLO.MinSuccessRatio)
	check(c.SLO.MinThroughputShare > 0 && c.SLO.MinThroughputShare <= 1, "minimum throughput share %v: must be in (0, 1]", c.SLO.MinThroughputShare)
	check(c.Start > 0, "start rate %v: must be above zero", c.Start)
	check(c.Growth > 1, "growth %v: must be above 1, or the ramp never climbs", c.Growth)
	check(c.Max >= c.Start, "maximum rate %v: must be at least the start rate %v", c.Max, c.Start)
	check(c.Precision > 0 && c.Precision < 1, "precision %v: must be in (0, 1)", c.Precision)
	check(c.Cores >= 1, "cores %d: must be at least 1", c.Cores)
	check(c.MissPause >= 0, "miss pause %v: must not be negative", c.MissPause)
	check(c.AppCores >= 1 && c.AppCores <= c.Cores, "app cores %d: must be from 1 to the machine's %d", c.AppCores, c.Cores)
	check(c.RestCores >= 0 && c.AppCores+c.RestCores <= c.Cores, "rest cores %d: must be from 0 to what the app's %d leave of the machine's %d", c.RestCores, c.AppCores, c.Cores)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("capacity config: %w", err)
	}
	return nil
}
