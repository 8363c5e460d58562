// Package config turns the bench's flags and environment into a Config,
// checked as a whole before anything runs: every flag's name, default and
// help text, the lists and rates they name, and the rules that tie flags
// together (-attach with -pid, -shard with -start-at, -capacity with its
// knobs). The runner reads a Config and never a flag.
package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"crudbench/bench/barrier"
	"crudbench/bench/load"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db/seed"
)

// Config is everything a benchmark run is told.
type Config struct {
	Profiles  []string
	Scenarios []string
	Apps      []string
	// Rates maps profile → scenario → requests per second, overrides applied.
	Rates map[string]map[string]float64
	// Model is how the load is sent: results.ModelOpen, at Rates, or
	// results.ModelClosed, a loop of Clients clients each sending its
	// next request when its last was answered (-model, -clients).
	Model   string
	Clients int

	Warmup, Duration, Cooldown, Timeout time.Duration
	// Prime is how long the discarded priming pass before an app's first
	// measured run of a scenario lasts; zero runs none.
	Prime          time.Duration
	MaxConnections int
	// GRPCConns is how many HTTP/2 connections the load of a grpc app
	// goes over, its calls taken in turn (see the -grpc-conns flag).
	GRPCConns int
	// AMQPConns is how many AMQP connections the load of an amqp app goes
	// over, its calls taken in turn (see the -amqp-conns flag).
	AMQPConns      int
	Repeat         int
	SampleInterval time.Duration
	DBMaxConns     int

	// Out is the folder under which a timestamped results folder is made.
	Out string

	// DatabaseURL, when set, is the server to use instead of a throwaway
	// cluster (and, in attach mode, where statements are counted).
	DatabaseURL string
	// ResetDB allows emptying and reseeding the database at DatabaseURL.
	ResetDB bool
	// Attach lists the apps already running, each under its name with its
	// kind and base URL; empty means the runner starts the apps itself.
	Attach []stack.Attached
	// PIDs maps app name → process id for sampling attached apps.
	PIDs map[string]int

	// ProfileCPU takes a CPU profile of the app during every measured
	// window; DebugURLs maps attached app name → its admin (pprof) base URL.
	ProfileCPU bool
	DebugURLs  map[string]string

	// MetricsURLs maps attached app name → the URLs of its Prometheus
	// metrics, read for CPU and memory when its process is not visible
	// and for its pool's wait: one per process, several for an app that
	// runs as replicas behind its -attach URL, whose figures are then
	// their sum, always from metrics. NoProc never reads the apps' CPU
	// and memory from /proc, only from their metrics.
	MetricsURLs map[string][]string
	NoProc      bool

	// Seed sizes the dataset the runner loads and holds the passwords it
	// logs in with (SEED_* environment variables).
	Seed seed.Config

	// SLOP99 is the p99 latency a run must stay within to be ok (and a
	// capacity probe to meet the SLO).
	SLOP99 time.Duration
	// Capacity says whether and how to search each (scenario, app) for
	// its capacity.
	Capacity CapacityOptions

	// Shard, when set, makes this runner one of several sending one
	// shared schedule (-shard, -start-at); ShardGap is the allowance in
	// every run's slot for the work between attacks (-shard-gap).
	Shard    *load.Shard
	ShardGap time.Duration
	// Barrier, when set, sets Shard.Start at run time instead of
	// -start-at: the start barrier the shards meet at (-barrier).
	Barrier *barrier.Barrier

	// CPUs places the apps the runner starts and everything else on CPUs
	// of their own (-cpus); zero when they share the machine's.
	CPUs CPUs

	// Notes are what reading the flags decided that the run's notes
	// should say, e.g. which apps -apps all left out and why.
	Notes []string

	// ValidateOnly runs the validation and nothing after it: no load, no
	// report (-validate-only).
	ValidateOnly bool

	// Pages is what the page scenarios view and how (pages.go); its
	// Scenarios are not in Scenarios, which are the API scenarios.
	Pages Pages
}

// Mode names how the run reaches the apps and the database, as
// results.Environment.Mode spells it.
func (c Config) Mode() string {
	switch {
	case len(c.Attach) > 0:
		return "attach"
	case c.DatabaseURL != "":
		return "database"
	}
	return "embedded"
}

// checkAttach checks that -attach and -apps agree: every measured app has
// a URL, and -pid names attached apps; -pid means nothing without -attach.
func (c Config) checkAttach() []error {
	var errs []error
	if len(c.Attach) == 0 {
		if len(c.PIDs) > 0 {
			errs = append(errs, errors.New("-pid only applies with -attach"))
		}
		return errs
	}
	for _, a := range c.Apps {
		if _, ok := c.Attached(a); !ok {
			errs = append(errs, fmt.Errorf("-attach has no URL for app %s (or leave it out of -apps)", a))
		}
	}
	return append(errs, c.checkAttachedNames("-pid", slices.Sorted(maps.Keys(c.PIDs)))...)
}

// checkLimits checks the timings and sizes; it names the first one out of
// range, since one fix at a time is easier to follow than a list.
func (c Config) checkLimits() error {
	switch {
	case c.Duration <= 0:
		return errors.New("-duration must be above zero")
	case c.Warmup < 0 || c.Cooldown < 0 || c.Prime < 0:
		return errors.New("-warmup, -cooldown and -prime must not be negative")
	case c.Timeout <= 0:
		return errors.New("-timeout must be above zero")
	case c.MaxConnections < 1:
		return errors.New("-max-connections must be at least 1")
	case c.GRPCConns < 1 || c.GRPCConns > c.MaxConnections:
		return errors.New("-grpc-conns must be in 1..-max-connections")
	case c.AMQPConns < 1 || c.AMQPConns > c.MaxConnections:
		return errors.New("-amqp-conns must be in 1..-max-connections")
	case c.Repeat < 1:
		return errors.New("-repeat must be at least 1")
	case c.SampleInterval <= 0:
		return errors.New("-sample-interval must be above zero")
	case c.DBMaxConns < 1 || c.DBMaxConns > 1000:
		return errors.New("-db-max-conns must be in 1..1000")
	case c.ResetDB && c.DatabaseURL == "":
		return errors.New("-reset-db needs DATABASE_URL: a throwaway cluster is always freshly seeded")
	case c.SLOP99 <= 0:
		return errors.New("-slo-p99 must be above zero")
	}
	return nil
}

// Attached returns the attached app called name.
func (c Config) Attached(name string) (stack.Attached, bool) {
	i := slices.IndexFunc(c.Attach, func(a stack.Attached) bool { return a.Name == name })
	if i < 0 {
		return stack.Attached{}, false
	}
	return c.Attach[i], true
}

// appNames lists the apps -apps may pick, in report order: the built-in
// apps in the table's order, then the other attached apps in the order
// -attach gave them.
func (c Config) appNames() []string {
	names := stack.BuiltinNames()
	for _, a := range c.Attach {
		if !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
		}
	}
	return names
}

// attachedNames lists the attached apps in report order: without -apps,
// those are the apps measured.
func (c Config) attachedNames() []string {
	var names []string
	for _, n := range c.appNames() {
		if _, ok := c.Attached(n); ok {
			names = append(names, n)
		}
	}
	return names
}

// AppInfo describes every measured app for the results: its kind, and for
// a built-in app its difference from its kind's default.
func (c Config) AppInfo() []results.App {
	out := make([]results.App, 0, len(c.Apps))
	for _, name := range c.Apps {
		row, _ := stack.FindBuiltin(name) // zero for an app that is not built in
		info := results.App{Name: name, Kind: string(row.Kind), Difference: row.Difference}
		if a, ok := c.Attached(name); ok {
			info.Kind = string(a.Kind)
		}
		out = append(out, info)
	}
	return out
}

// checkAttachedNames checks that the names of flag (-pid, -debug-url,
// -metrics-url) are attached apps.
func (c Config) checkAttachedNames(flag string, names []string) []error {
	var errs []error
	for _, name := range names {
		if _, ok := c.Attached(name); !ok {
			errs = append(errs, fmt.Errorf("%s: %s is not an attached app", flag, name))
		}
	}
	return errs
}

// MeasuredGRPCConns is GRPCConns when the run measures an app of kind
// grpc, and 0 when it measures none: the report then has nothing to say
// about gRPC connections.
func (c Config) MeasuredGRPCConns() int {
	return c.measured(scenario.KindGRPC, c.GRPCConns)
}

// MeasuredAMQPConns is AMQPConns when the run measures an app of kind
// amqp, and 0 when it measures none.
func (c Config) MeasuredAMQPConns() int {
	return c.measured(scenario.KindAMQP, c.AMQPConns)
}

// Has reports whether the run measures an app of kind k.
func (c Config) Has(k scenario.Kind) bool {
	for _, a := range c.AppInfo() {
		if a.Kind == string(k) {
			return true
		}
	}
	return false
}

// measured is conns, at least 1, when the run measures an app of kind k,
// else 0.
func (c Config) measured(k scenario.Kind, conns int) int {
	if c.Has(k) {
		return max(conns, 1)
	}
	return 0
}
