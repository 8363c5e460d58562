// Package runner is the benchmark itself: it brings up (or attaches to) the
// three apps, validates every scenario on every app, drives each at the
// profiles' constant rates one app at a time, samples CPU and memory of the
// apps and of PostgreSQL, counts SQL statements, and returns everything as
// a results.Run for the report writers.
package runner

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db"
	"crudbench/db/seed"
)

// Config is everything a benchmark run is told.
type Config struct {
	Profiles  []string
	Scenarios []string
	Apps      []string
	// Rates maps profile → scenario → requests per second, overrides applied.
	Rates map[string]map[string]float64

	Warmup, Duration, Cooldown, Timeout time.Duration
	MaxConnections                      int
	Repeat                              int
	SampleInterval                      time.Duration
	DBMaxConns                          int

	// Out is the folder under which a timestamped results folder is made.
	Out string

	// DatabaseURL, when set, is the server to use instead of a throwaway
	// cluster (and, in attach mode, where statements are counted).
	DatabaseURL string
	// ResetDB allows emptying and reseeding the database at DatabaseURL.
	ResetDB bool
	// Attach maps app name → base URL of apps already running; empty means
	// the runner starts the apps itself.
	Attach map[string]string
	// PIDs maps app name → process id for sampling attached apps.
	PIDs map[string]int
	// Seed sizes the dataset the runner loads and holds the passwords it
	// logs in with (SEED_* environment variables).
	Seed seed.Config
}

// ParseFlags reads the bench's flags and environment (DATABASE_URL and the
// SEED_* variables). With -h it prints usage to stderr and returns an error
// matching flag.ErrHelp.
func ParseFlags(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: go run ./bench [flags]

Benchmarks the rest, graphql and htmx apps at constant request rates and writes
report.md, report.html and results.json into a new folder under -out.

With nothing set it starts a throwaway PostgreSQL cluster, builds and starts
the three apps, and runs the light profile. DATABASE_URL uses that server
instead; -attach measures apps that are already running.

Flags:
`)
		fs.PrintDefaults()
	}
	var (
		profiles   = fs.String("profiles", scenario.Light, "profiles to run, comma-separated: light,medium,high or all")
		scenarios  = fs.String("scenarios", strings.Join(scenario.Core, ","), "scenarios, comma-separated, or all: "+strings.Join(scenario.All, ","))
		apps       = fs.String("apps", strings.Join(scenario.Apps, ","), "apps to measure, comma-separated")
		duration   = fs.Duration("duration", 15*time.Second, "measured `time` of each run")
		warmup     = fs.Duration("warmup", 3*time.Second, "warm-up `time` before each measured window (discarded)")
		cooldown   = fs.Duration("cooldown", 2*time.Second, "pause between runs")
		timeout    = fs.Duration("timeout", 30*time.Second, "timeout of each request")
		maxConns   = fs.Int("max-connections", 100, "most connections open to an app at once")
		rates      = fs.String("rate", "", "rate overrides in req/s, e.g. read-one=50,high.write=80")
		repeat     = fs.Int("repeat", 1, "measure every run `n` times; the report shows medians and the spread")
		out        = fs.String("out", "results", "`folder` for the results (a timestamped subfolder is made)")
		interval   = fs.Duration("sample-interval", sampler.DefaultInterval, "CPU and memory sampling interval")
		dbMaxConns = fs.Int("db-max-conns", db.DefaultMaxConns, "DB_MAX_CONNS given to every app the runner starts")
		attach     = fs.String("attach", "", "measure running apps instead of starting them: rest=http://host:8081,graphql=…,htmx=…")
		pids       = fs.String("pid", "", "process ids of attached apps for CPU/RSS, e.g. rest=1234 (default: found by executable name)")
		resetDB    = fs.Bool("reset-db", false, "with DATABASE_URL: empty the database and load the dataset again")
	)
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments %q (flags only)", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	cfg := Config{
		Warmup: *warmup, Duration: *duration, Cooldown: *cooldown, Timeout: *timeout,
		MaxConnections: *maxConns, Repeat: *repeat, Out: *out, SampleInterval: *interval,
		DBMaxConns: *dbMaxConns, DatabaseURL: getenv("DATABASE_URL"), ResetDB: *resetDB,
	}
	var err error
	var errs []error
	if cfg.Profiles, err = scenario.ParseList("profile", *profiles, scenario.Profiles); err != nil {
		errs = append(errs, fmt.Errorf("-profiles: %w", err))
	}
	if cfg.Scenarios, err = scenario.ParseList("scenario", *scenarios, scenario.All); err != nil {
		errs = append(errs, fmt.Errorf("-scenarios: %w", err))
	}
	if cfg.Attach, err = stack.ParseAttach(*attach); err != nil {
		errs = append(errs, err)
	}
	if cfg.PIDs, err = stack.ParsePIDs(*pids); err != nil {
		errs = append(errs, err)
	}
	appList := *apps
	if len(cfg.Attach) > 0 && !set["apps"] {
		// Attaching names the apps: measure exactly those.
		var names []string
		for name := range cfg.Attach {
			names = append(names, name)
		}
		appList = strings.Join(names, ",")
	}
	if cfg.Apps, err = scenario.ParseList("app", appList, scenario.Apps); err != nil {
		errs = append(errs, fmt.Errorf("-apps: %w", err))
	}
	for name := range cfg.Attach {
		if !slices.Contains(scenario.Apps, name) {
			errs = append(errs, fmt.Errorf("-attach: unknown app %q", name))
		}
	}
	if len(cfg.Attach) > 0 {
		for _, a := range cfg.Apps {
			if _, ok := cfg.Attach[a]; !ok {
				errs = append(errs, fmt.Errorf("-attach has no URL for app %s (or leave it out of -apps)", a))
			}
		}
	} else if len(cfg.PIDs) > 0 {
		errs = append(errs, errors.New("-pid only applies with -attach"))
	}
	overrides, err := scenario.ParseRates(*rates)
	if err != nil {
		errs = append(errs, fmt.Errorf("-rate: %w", err))
	} else if cfg.Profiles != nil && cfg.Scenarios != nil {
		if cfg.Rates, err = scenario.RateTable(cfg.Profiles, cfg.Scenarios, overrides); err != nil {
			errs = append(errs, fmt.Errorf("-rate: %w", err))
		}
	}
	switch {
	case cfg.Duration <= 0:
		errs = append(errs, errors.New("-duration must be above zero"))
	case cfg.Warmup < 0 || cfg.Cooldown < 0:
		errs = append(errs, errors.New("-warmup and -cooldown must not be negative"))
	case cfg.Timeout <= 0:
		errs = append(errs, errors.New("-timeout must be above zero"))
	case cfg.MaxConnections < 1:
		errs = append(errs, errors.New("-max-connections must be at least 1"))
	case cfg.Repeat < 1:
		errs = append(errs, errors.New("-repeat must be at least 1"))
	case cfg.SampleInterval <= 0:
		errs = append(errs, errors.New("-sample-interval must be above zero"))
	case cfg.DBMaxConns < 1 || cfg.DBMaxConns > 1000:
		errs = append(errs, errors.New("-db-max-conns must be in 1..1000"))
	case cfg.ResetDB && cfg.DatabaseURL == "":
		errs = append(errs, errors.New("-reset-db needs DATABASE_URL: a throwaway cluster is always freshly seeded"))
	}
	if cfg.Seed, err = seed.ConfigFromEnv(getenv); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	return cfg, nil
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
