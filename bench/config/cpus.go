package config

import (
	"errors"
	"fmt"
	"strings"

	"crudbench/bench/cpuset"
)

// CPUs is how a run places its processes on the machine's CPUs (-cpus):
// the app under test on one set, everything else — PostgreSQL, the runner
// and its load generator — on another, so that the app's capacity is what
// its own CPUs give and not what the others leave it.
type CPUs struct {
	// App is where the apps the runner starts run, Rest where the
	// throwaway PostgreSQL and the runner run. Both are empty when every
	// process shares the runner's CPUs. In attach mode App is always
	// empty (the runner starts no app) and Rest, when set, is the
	// runner's alone.
	App, Rest cpuset.Set
	// Auto is true when the runner split its CPUs itself (-cpus auto).
	Auto bool
}

// Isolated reports whether the apps the runner starts have CPUs of their
// own.
func (c CPUs) Isolated() bool { return len(c.App) > 0 }

// Values of -cpus besides a split of its own.
const (
	CPUsAuto   = "auto"
	CPUsShared = "shared"
)

// cpusUsage is the help text of -cpus.
const cpusUsage = "`split` of the CPUs: app=LIST,rest=LIST (kernel lists, e.g. app=1,rest=0; rest defaults to the CPUs app leaves) runs the apps the runner starts on app, and PostgreSQL and the runner on rest; " +
	CPUsAuto + " splits the runner's CPUs in halves by core, the apps taking the last half (a no-op below 2 CPUs, and with -attach, where only rest=LIST applies: the runner's own CPUs); " +
	CPUsShared + " runs everything on every CPU"

// readCPUs reads -cpus for a machine m: explicit is true when the flag
// was given, attach when the runner starts no app. Asked for explicitly,
// a split that cannot be made is an error; by default, the run then
// shares the CPUs.
func readCPUs(value string, explicit, attach bool, m cpuset.Machine) (CPUs, error) {
	value = strings.TrimSpace(value)
	switch value {
	case CPUsShared:
		return CPUs{}, nil
	case CPUsAuto:
		switch {
		case attach && explicit:
			return CPUs{}, errors.New("-cpus auto: the runner does not start attached apps, so it cannot give them CPUs: start them on CPUs of their own (e.g. taskset -c) and keep the runner off them with -cpus rest=LIST")
		case attach:
			return CPUs{}, nil
		}
		app, rest, ok := m.Split()
		switch {
		case !ok && explicit:
			return CPUs{}, tooFew(value, m)
		case !ok:
			return CPUs{}, nil
		}
		return CPUs{App: app, Rest: rest, Auto: true}, nil
	}
	sides, err := parseSides(value)
	if err != nil {
		return CPUs{}, err
	}
	app, rest := sides["app"], sides["rest"]
	switch {
	case attach && len(app) > 0:
		return CPUs{}, fmt.Errorf("-cpus %s: the runner does not start attached apps, so it cannot give them CPUs: start them on CPUs of their own (e.g. taskset -c) and give only rest=LIST, which keeps the runner off them", value)
	case attach:
		return CPUs{Rest: rest}, checkOnMachine(value, "rest", rest, m)
	case len(app) == 0:
		return CPUs{}, fmt.Errorf("-cpus %s: name the apps' CPUs, e.g. app=1,rest=0 (or -cpus %s, or %s)", value, CPUsAuto, CPUsShared)
	case len(m.Allowed) < 2:
		return CPUs{}, tooFew(value, m)
	}
	if err := errors.Join(checkOnMachine(value, "app", app, m), checkOnMachine(value, "rest", rest, m)); err != nil {
		return CPUs{}, err
	}
	if len(rest) == 0 {
		if rest = m.Allowed.Minus(app); len(rest) == 0 {
			return CPUs{}, fmt.Errorf("-cpus %s: the apps would take every CPU the runner may use (%s): leave at least one for PostgreSQL and the runner", value, m.Allowed)
		}
	}
	if both := app.And(rest); len(both) > 0 {
		return CPUs{}, fmt.Errorf("-cpus %s: CPUs %s are in both app and rest: each side needs CPUs of its own (or -cpus %s)", value, both, CPUsShared)
	}
	return CPUs{App: app, Rest: rest}, nil
}

// tooFew is the error of a split asked for on fewer than two CPUs.
func tooFew(value string, m cpuset.Machine) error {
	return fmt.Errorf("-cpus %s: giving the apps CPUs of their own needs at least 2 CPUs, and the runner may use only CPU %s: use -cpus %s", value, m.Allowed, CPUsShared)
}

// parseSides reads "app=1-2,4,rest=0": each side's CPU list runs up to
// the next side's name, since a list has commas of its own.
func parseSides(value string) (map[string]cpuset.Set, error) {
	lists := map[string][]string{}
	side := ""
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if name, list, ok := strings.Cut(item, "="); ok {
			side = strings.TrimSpace(name)
			if side != "app" && side != "rest" {
				return nil, fmt.Errorf("-cpus %s: unknown side %q: want app=LIST,rest=LIST, %s or %s", value, side, CPUsAuto, CPUsShared)
			}
			if _, twice := lists[side]; twice {
				return nil, fmt.Errorf("-cpus %s: %s is named twice", value, side)
			}
			item = list
		} else if side == "" {
			return nil, fmt.Errorf("-cpus %s: want app=LIST,rest=LIST (e.g. app=1,rest=0), %s or %s", value, CPUsAuto, CPUsShared)
		}
		lists[side] = append(lists[side], item)
	}
	sides := map[string]cpuset.Set{}
	for name, items := range lists {
		s, err := cpuset.Parse(strings.Join(items, ","))
		if err != nil {
			return nil, fmt.Errorf("-cpus %s: %s: %w", value, name, err)
		}
		sides[name] = s
	}
	return sides, nil
}

// checkOnMachine checks that the CPUs of one side exist and are the
// runner's to give.
func checkOnMachine(value, side string, s cpuset.Set, m cpuset.Machine) error {
	if missing := s.Minus(m.Online); len(missing) > 0 {
		return fmt.Errorf("-cpus %s: %s: CPUs %s do not exist: this machine's CPUs are %s", value, side, missing, m.Online)
	}
	if barred := s.Minus(m.Allowed); len(barred) > 0 {
		return fmt.Errorf("-cpus %s: %s: CPUs %s are not among the CPUs the runner may use (%s; it was started under taskset or in a cpuset)", value, side, barred, m.Allowed)
	}
	return nil
}
