package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"crudbench/bench/cpuset"
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db"
	"crudbench/db/seed"
)

// usage heads the -h output; the flags' defaults follow it.
const usage = `Usage: go run ./bench [flags]

Benchmarks apps at constant request rates and writes report.md, report.html
and results.json into a new folder under -out. An app is a named
implementation of a kind of contract: rest, graphql, site, grpc or trpc.

With nothing set it starts a throwaway PostgreSQL cluster, builds and starts
the default app of the kinds rest, graphql and site (rest, graphql, htmx),
and runs the light profile. -apps picks built-in apps by name, all of them
(all), or a group: go (every Go app) or node (every Node.js app, which needs
Node.js 20+ with npm). DATABASE_URL uses that server instead; -attach measures apps that are already running,
under names of their own. -validate-only checks every scenario on every app
and stops there. -model closed -clients N sends the load as N clients in a
loop instead of at constant rates. -capacity searches each scenario and app for the highest
rate that meets the SLO (-slo-p99). -shard i/N with -start-at makes this
runner one of N that send one shared schedule to attached apps.

Flags:
`

// DefaultGRPCConns is the grpc kind's connections per app: one, the client
// gRPC libraries make of a target (one channel, one HTTP/2 connection,
// every call multiplexed over it) and the one grpc-go says to reuse. It is
// a count, where -max-connections is a cap: an HTTP/1.1 client opens a
// connection per request in flight, up to the cap, while a gRPC client
// sends them all as streams of the connections it has, so more
// connections spread the calls over more sockets (and the server's
// reading goroutines) and change the result; -grpc-conns measures that.
const DefaultGRPCConns = 1

// DefaultAMQPConns is the amqp kind's connections per app: one, with one
// channel that publishes every call and consumes their replies on
// RabbitMQ's direct reply-to, as a service's RPC client holds one
// connection to its broker. Like -grpc-conns it is a count, not a cap:
// calls in flight share the channel, so more connections spread them over
// more sockets (and the broker's connection processes); -amqp-conns
// measures that.
const DefaultAMQPConns = 1

// flagValues holds the flags as parsed, before the lists in them are read
// and checked into a Config.
type flagValues struct {
	profiles, scenarios, apps, rates, out, attach, pids         *string
	duration, warmup, cooldown, timeout, interval, prime        *time.Duration
	maxConns, grpcConns, amqpConns, repeat, dbMaxConns, clients *int
	model                                                       *string
	resetDB, validateOnly                                       *bool
	cpus                                                        *string
	pageDevices                                                 *string
	pageContexts                                                *int

	profileCPU                     *bool
	debugURLs                      *string
	metricsURLs                    *string
	noProc                         *bool
	sloP99                         *time.Duration
	capacity                       *bool
	capStart, capMax, capPrecision *float64
	probeWarmup, probeDuration     *time.Duration
	shard                          shardFlags
}

// defineFlags declares the bench's flags on fs.
func defineFlags(fs *flag.FlagSet) flagValues {
	return flagValues{
		profiles: fs.String("profiles", scenario.Light, "profiles to run, comma-separated: light,medium,high or all"),
		scenarios: fs.String("scenarios", "", "scenarios, comma-separated, or all: "+strings.Join(scenario.All, ",")+
			" drive an API; "+strings.Join(scenario.Pages, ",")+" view a front end's page in headless Chromium, cold and warm"+
			" (default "+strings.Join(scenario.Core, ",")+"; with -validate-only: every API scenario)"),
		apps: fs.String("apps", strings.Join(stack.DefaultNames(), ","), "built-in apps to measure, comma-separated: "+strings.Join(stack.BuiltinNames(), ",")+
			", the front ends "+strings.Join(stack.FrontEndNames(), ",")+" (viewed by the page scenarios, each starting the API it fronts), all, or the groups go and node (every Go or Node.js API app); names and groups mix (with -attach: attached apps)"),
		pageDevices:  fs.String("page-devices", DeviceDesktop, "devices the page scenarios view on, comma-separated: desktop (unthrottled) and mobile (Fast 3G-like network, 4× CPU throttling), or all"),
		pageContexts: fs.Int("page-contexts", DefaultPageContexts, "most browser contexts the page scenarios view in at once, `n`: a view due while all are busy fails (open model)"),
		duration:     fs.Duration("duration", 15*time.Second, "measured `time` of each run"),
		warmup:       fs.Duration("warmup", 3*time.Second, "warm-up `time` before each measured window (discarded)"),
		cooldown:     fs.Duration("cooldown", 2*time.Second, "pause between runs"),
		prime:        fs.Duration("prime", 3*time.Second, "`time` of the discarded priming pass, at a quarter of the run's rate, before an app's first measured run of a scenario (0: none)"),
		timeout:      fs.Duration("timeout", 30*time.Second, "timeout of each request"),
		maxConns:     fs.Int("max-connections", 100, "most connections open to an HTTP app at once"),
		grpcConns:    fs.Int("grpc-conns", DefaultGRPCConns, "HTTP/2 connections the load of a grpc app goes over, its calls taken in turn (gRPC multiplexes every call in flight over a connection)"),
		amqpConns:    fs.Int("amqp-conns", DefaultAMQPConns, "AMQP connections (one channel each) the load of an amqp app goes over, its calls taken in turn (every call in flight shares its connection's channel)"),
		rates:        fs.String("rate", "", "rate overrides in req/s, e.g. read-one=50,high.write=80"),
		model:        fs.String("model", results.ModelOpen, "how the load is sent: open (each request on schedule at the profile's rate, whatever the app does) or closed (-clients clients, each sending its next request when its last was answered, as hey -c and autocannon do)"),
		clients:      fs.Int("clients", 0, "with -model closed: how many clients run the loop, `n` (at most -max-connections: against an HTTP app each has a connection of its own)"),
		repeat:       fs.Int("repeat", 1, "measure every run `n` times, and with -capacity search each capacity n times, each on a freshly started app; the report shows medians and the spread"),
		out:          fs.String("out", "results", "`folder` for the results (a timestamped subfolder is made)"),
		interval:     fs.Duration("sample-interval", sampler.DefaultInterval, "CPU and memory sampling interval"),
		dbMaxConns:   fs.Int("db-max-conns", db.DefaultMaxConns, "DB_MAX_CONNS given to every app the runner starts"),
		attach:       fs.String("attach", "", "measure running apps instead of starting them: name=kind@URL (kind rest, graphql, site or trpc), e.g. candidate=rest@http://10.0.0.5:8080, or name=grpc@host:port, or name=amqp@amqp://user:pass@host:5672/vhost (the broker its app consumes crudbench.requests from); a built-in app's name=URL is short for its kind, e.g. rest=http://localhost:8081, grpc=grpc://localhost:8087"),
		pids:         fs.String("pid", "", "process ids of attached apps for CPU/RSS, e.g. candidate=1234 (default: found by executable name)"),
		validateOnly: fs.Bool("validate-only", false, "only validate every scenario on every app (conformance), print what passed and what failed, and exit non-zero on a failure: no load, no report"),
		resetDB:      fs.Bool("reset-db", false, "with DATABASE_URL: empty the database and load the dataset again"),
		cpus:         fs.String("cpus", CPUsAuto, cpusUsage),

		profileCPU:    fs.Bool("profile-cpu", false, "take a CPU profile of the app during every measured window (profiles/*.pb.gz)"),
		debugURLs:     fs.String("debug-url", "", "admin (pprof) addresses of attached apps for -profile-cpu, e.g. rest=http://127.0.0.1:6060"),
		metricsURLs:   fs.String("metrics-url", "", "Prometheus metrics of attached apps, any host, for CPU/RSS when their process is not visible (or with -no-proc) and for the pool's wait, e.g. rest=http://10.0.0.5:9100/metrics; an app named again is that many replicas behind its -attach URL, their figures added up (no -pid for it), e.g. rest=http://10.0.0.5:9100/metrics,rest=http://10.0.0.6:9100/metrics"),
		noProc:        fs.Bool("no-proc", false, "take the apps' CPU and memory during the runs from their metrics, never from /proc (n/a without metrics)"),
		sloP99:        fs.Duration("slo-p99", results.DefaultSLOP99, "p99 latency of the SLO: a run that held its rate is ok within it, slow over it"),
		capacity:      fs.Bool("capacity", false, "search each scenario and app for the highest rate meeting the SLO (the fixed profiles then run only when -profiles is given)"),
		capStart:      fs.Float64("capacity-start", DefaultCapacity.Start, "first `rate` (req/s) of the capacity search's ramp"),
		capMax:        fs.Float64("capacity-max", DefaultCapacity.Max, "highest `rate` (req/s) the capacity search tries"),
		capPrecision:  fs.Float64("capacity-precision", DefaultCapacity.Precision, "relative width at which the capacity search stops bisecting"),
		probeWarmup:   fs.Duration("probe-warmup", DefaultCapacity.ProbeWarmup, "warm-up `time` of each capacity probe"),
		probeDuration: fs.Duration("probe-duration", DefaultCapacity.ProbeDuration, "measured `time` of each capacity probe"),
		shard:         defineShardFlags(fs),
	}
}

// Parse reads the bench's flags and environment (DATABASE_URL and the
// SEED_* variables). With -h it prints usage to stderr and returns an error
// matching flag.ErrHelp.
func Parse(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	v := defineFlags(fs)
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments %q (flags only)", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	cfg := Config{
		Warmup: *v.warmup, Duration: *v.duration, Cooldown: *v.cooldown, Timeout: *v.timeout, Prime: *v.prime,
		MaxConnections: *v.maxConns, GRPCConns: *v.grpcConns, AMQPConns: *v.amqpConns, Repeat: *v.repeat, Out: *v.out, SampleInterval: *v.interval,
		DBMaxConns: *v.dbMaxConns, DatabaseURL: getenv("DATABASE_URL"), ResetDB: *v.resetDB,
		ProfileCPU: *v.profileCPU, ValidateOnly: *v.validateOnly, NoProc: *v.noProc,
	}
	errs := cfg.readLists(v, set, getenv("AMQP_URL") != "")
	errs = append(errs, cfg.readCapacity(v, set)...)
	errs = append(errs, cfg.checkAttach()...)
	errs = append(errs, cfg.checkProfiling()...)
	errs = append(errs, cfg.readShard(v.shard, set, time.Now())...)
	errs = append(errs, cfg.checkMetrics()...)
	errs = append(errs, cfg.readRates(*v.rates), cfg.checkLimits(), cfg.readCPUs(*v.cpus, set["cpus"]))
	errs = append(errs, cfg.readModel(*v.model, *v.clients, set))
	errs = append(errs, cfg.readPages(*v.pageDevices, *v.pageContexts))
	var err error
	if cfg.Seed, err = seed.ConfigFromEnv(getenv); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// readLists reads the comma-separated flags into c. Without -apps, the
// apps -attach names are the ones measured; without -scenarios,
// -validate-only checks them all. haveAMQPURL says AMQP_URL is set: the
// amqp apps need no local broker then (checkBroker).
func (c *Config) readLists(v flagValues, set map[string]bool, haveAMQPURL bool) []error {
	var err error
	var errs []error
	if c.Profiles, err = scenario.ParseList("profile", *v.profiles, scenario.Profiles); err != nil {
		errs = append(errs, fmt.Errorf("-profiles: %w", err))
	}
	scenarios := *v.scenarios
	switch {
	case set["scenarios"]:
	case c.ValidateOnly:
		scenarios = strings.Join(scenario.All, ",")
	default:
		scenarios = strings.Join(scenario.Core, ",")
	}
	if c.Scenarios, err = scenario.ParseList("scenario", scenarios, scenario.Every); err != nil {
		errs = append(errs, fmt.Errorf("-scenarios: %w", err))
	}
	c.splitScenarios()
	if c.Attach, err = stack.ParseAttach(*v.attach); err != nil {
		errs = append(errs, err)
	}
	if c.PIDs, err = stack.ParsePIDs(*v.pids); err != nil {
		errs = append(errs, err)
	}
	if c.DebugURLs, err = parseDebugURLs(*v.debugURLs); err != nil {
		errs = append(errs, err)
	}
	if c.MetricsURLs, err = parseMetricsURLs(*v.metricsURLs); err != nil {
		errs = append(errs, err)
	}
	appList := *v.apps
	if len(c.Attach) > 0 && !set["apps"] {
		// Attaching names the apps: measure exactly those.
		appList = strings.Join(c.attachedNames(), ",")
	}
	var named map[string]string
	known := c.appNames()
	if len(c.Attach) == 0 {
		known = append(known, stack.FrontEndNames()...) // the runner starts them: never attached
	}
	if c.Apps, named, err = parseApps(appList, known); err != nil {
		errs = append(errs, fmt.Errorf("-apps: %w", err))
	} else if err := c.checkToolchains(named); err != nil {
		errs = append(errs, err)
	} else if err := c.checkBroker(named, haveAMQPURL); err != nil {
		errs = append(errs, err)
	} else if c.Scenarios != nil || c.Pages.Scenarios != nil {
		if err := c.splitApps(listsAll(scenarios), listsAll(appList)); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// readCPUs sets c.CPUs from -cpus for this machine (after -attach).
func (c *Config) readCPUs(value string, explicit bool) error {
	m, err := cpuset.ThisMachine()
	if err != nil {
		if explicit && strings.TrimSpace(value) != CPUsShared {
			return fmt.Errorf("-cpus %s: %w", value, err)
		}
		return nil
	}
	c.CPUs, err = readCPUs(value, explicit, len(c.Attach) > 0, m)
	return err
}

// readRates builds c.Rates from the profiles and scenarios read and the
// -rate overrides; without both lists there is no table to build.
func (c *Config) readRates(rates string) error {
	overrides, err := scenario.ParseRates(rates)
	if err != nil {
		return fmt.Errorf("-rate: %w", err)
	}
	if c.Profiles != nil && c.Scenarios != nil {
		if c.Rates, err = scenario.RateTable(c.Profiles, c.Scenarios, overrides); err != nil {
			return fmt.Errorf("-rate: %w", err)
		}
	}
	if c.Profiles != nil && c.Pages.Scenarios != nil {
		if c.Pages.Rates, err = scenario.RateTable(c.Profiles, c.Pages.Scenarios, overrides); err != nil {
			return fmt.Errorf("-rate: %w", err)
		}
	}
	return nil
}

// listsAll reports whether a comma-separated flag value holds the item
// all.
func listsAll(value string) bool {
	for item := range strings.SplitSeq(value, ",") {
		if strings.TrimSpace(item) == "all" {
			return true
		}
	}
	return false
}
