// Package config reads the settings every crudbench app shares from the
// environment, with command-line flags as overrides, so that every Go app
// is configured (and benchmarked) the same way.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"crudbench/db"
)

// DevAuthSecret is the token signing secret used when AUTH_SECRET is not set.
// It is public (it is in the source), so it is only fit for local runs and
// benchmarks; apps log a warning when they use it.
const DevAuthSecret = "crudbench-dev-secret-change-me"

// Defaults shared by all apps. The pool size (DB_MAX_CONNS) and the request
// deadline (REQUEST_TIMEOUT) default to db.DefaultMaxConns and
// db.DefaultTimeout: the Store defines them, so that an app and a Store
// opened without options agree.
const (
	DefaultDatabaseURL = "postgres://postgres@localhost:5432/crudbench?sslmode=disable"
	DefaultTokenTTL    = time.Hour // short: nothing revokes a token, so it outlives a sign-out by up to this
	// MaxRequestTimeout keeps the deadline short of the servers' 30 s write
	// timeout, so that the 503 still reaches the client.
	MaxRequestTimeout = 25 * time.Second
)

// minAuthSecretLen keeps HS256 keys from being trivially guessable.
const minAuthSecretLen = 16

// Config is what every app reads from its environment, flags overriding.
type Config struct {
	DatabaseURL    string        // DATABASE_URL, -database-url
	Addr           string        // ADDR, -addr; the default is chosen by the app
	DBMaxConns     int32         // DB_MAX_CONNS, -db-max-conns; 1..1000
	LogLevel       slog.Level    // LOG_LEVEL, -log-level: debug|info|warn|error; requests are logged only at debug
	AuthSecret     []byte        // AUTH_SECRET, -auth-secret; at least 16 bytes
	TokenTTL       time.Duration // TOKEN_TTL, -token-ttl; how long a login token stays valid
	RequestTimeout time.Duration // REQUEST_TIMEOUT, -request-timeout; every request's deadline, also the database's statement timeout
	// DebugAddr (DEBUG_ADDR, -debug-addr) is the admin address that serves
	// the profiler; empty, the default, serves none. It must be a loopback
	// host: the profiler shows the program's internals and costs CPU on
	// demand, so it must never be reachable from the network.
	DebugAddr string
	// MetricsAddr (METRICS_ADDR, -metrics-addr) is a second admin address
	// that serves only /metrics; empty, the default, serves none. Unlike
	// DebugAddr it may bind any interface (":9100"): a bench in another
	// container or on another host reads the app's CPU, memory and pool
	// there, and metrics reveal no more than their own names and counts.
	MetricsAddr string
}

// Setting is a setting of one app only (GRAPHQL_INTROSPECTION,
// HTMX_RENDERER), given to Load beside the shared ones and read the same
// way: a flag, an environment variable, a default, in -h.
type Setting struct {
	Flag, Env, Default, Usage string
	// Set checks and keeps the chosen value; Load reports its error with
	// the variable or flag the value came from.
	Set func(string) error
}

// setting is one configuration value: its flag, its environment variable and
// how to store it once chosen.
type setting struct {
	flag, env, def, usage string
	sensitive             bool // may hold credentials: never echoed in errors
	set                   func(c *Config, s string) error
}

// Load reads the configuration. args are the command-line arguments without
// the program name; they are parsed by a flag.FlagSet called name that writes
// usage and flag errors to stderr. Environment variables are read with getenv.
// A flag given on the command line wins over its environment variable, which
// wins over the default. defaultAddr is the app's own listen address.
//
// An invalid value yields an error naming the variable or flag it came from.
// With -h or -help, Load prints usage and returns an error matching
// flag.ErrHelp. own are the app's own settings, read after the shared ones.
func Load(name string, args []string, getenv func(string) string, defaultAddr string, stderr io.Writer, own ...Setting) (Config, error) {
	settings := []setting{
		{flag: "database-url", env: "DATABASE_URL", def: DefaultDatabaseURL,
			usage: "PostgreSQL connection `url`", sensitive: true, set: setDatabaseURL},
		{flag: "addr", env: "ADDR", def: defaultAddr,
			usage: "listen `address` (host:port; port 0 picks a free port)", set: setAddr},
		{flag: "db-max-conns", env: "DB_MAX_CONNS", def: strconv.Itoa(db.DefaultMaxConns),
			usage: "maximum open database connections, `n` in 1..1000", set: setDBMaxConns},
		{flag: "log-level", env: "LOG_LEVEL", def: "info",
			usage: "log `level`: debug|info|warn|error (requests are logged at debug)", set: setLogLevel},
		{flag: "auth-secret", env: "AUTH_SECRET", def: DevAuthSecret,
			usage: "token signing `secret`, at least 16 bytes (the default is public: development only)", sensitive: true, set: setAuthSecret},
		{flag: "token-ttl", env: "TOKEN_TTL", def: DefaultTokenTTL.String(),
			usage: "how long a login token stays valid (a `duration` such as 12h)", set: setTokenTTL},
		{flag: "request-timeout", env: "REQUEST_TIMEOUT", def: db.DefaultTimeout.String(),
			usage: "each request's deadline (a `duration` up to 25s); a request still waiting for the database then gets 503", set: setRequestTimeout},
		{flag: "debug-addr", env: "DEBUG_ADDR", def: "",
			usage: "admin `address` serving /debug/pprof and /metrics, loopback only (127.0.0.1:6060); empty serves none", set: setDebugAddr},
		{flag: "metrics-addr", env: "METRICS_ADDR", def: "",
			usage: "`address` serving only /metrics, any interface (:9100) so a bench elsewhere can read it; empty serves none", set: setMetricsAddr},
	}
	for _, o := range own {
		settings = append(settings, setting{flag: o.Flag, env: o.Env, def: o.Default, usage: o.Usage,
			set: func(_ *Config, s string) error { return o.Set(s) }})
	}

	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	flagValues := make([]*string, len(settings))
	for i, s := range settings {
		flagValues[i] = fs.String(s.flag, s.def, s.usage+" (env "+s.env+")")
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("config: unexpected arguments %q", fs.Args())
	}
	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })

	var c Config
	for i, s := range settings {
		value, source := s.def, "default "+s.env
		if v := getenv(s.env); v != "" {
			value, source = v, s.env
		}
		if given[s.flag] {
			value, source = *flagValues[i], "-"+s.flag
		}
		if err := s.set(&c, value); err != nil {
			if s.sensitive {
				return Config{}, fmt.Errorf("config: %s: %w", source, err)
			}
			return Config{}, fmt.Errorf("config: %s %q: %w", source, value, err)
		}
	}
	return c, nil
}

// UsesDevAuthSecret reports whether tokens are signed with the public
// DevAuthSecret, which apps warn about at start-up.
func (c Config) UsesDevAuthSecret() bool {
	return string(c.AuthSecret) == DevAuthSecret
}

// Logger returns a JSON slog.Logger writing to w at c.LogLevel. JSON because
// the logs are read by programs (the bench, log collectors) as often as by
// people.
func (c Config) Logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: c.LogLevel}))
}

func setDatabaseURL(c *Config, s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("must not be empty")
	}
	c.DatabaseURL = s
	return nil
}

func setAddr(c *Config, s string) error {
	if _, port, err := net.SplitHostPort(s); err != nil {
		return errors.New("must be host:port, for example :8081")
	} else if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return errors.New("port must be a number from 0 to 65535")
	}
	c.Addr = s
	return nil
}

func setDBMaxConns(c *Config, s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil || n < 1 || n > 1000 {
		return errors.New("must be a whole number from 1 to 1000")
	}
	c.DBMaxConns = int32(n)
	return nil
}

func setLogLevel(c *Config, s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "debug":
		c.LogLevel = slog.LevelDebug
	case "info":
		c.LogLevel = slog.LevelInfo
	case "warn", "warning":
		c.LogLevel = slog.LevelWarn
	case "error":
		c.LogLevel = slog.LevelError
	default:
		return errors.New("must be one of debug, info, warn, error")
	}
	return nil
}

func setAuthSecret(c *Config, s string) error {
	if len(s) < minAuthSecretLen {
		return fmt.Errorf("must be at least %d bytes, got %d", minAuthSecretLen, len(s))
	}
	c.AuthSecret = []byte(s)
	return nil
}

func setTokenTTL(c *Config, s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return errors.New("must be a positive duration such as 12h or 30m")
	}
	c.TokenTTL = d
	return nil
}

func setRequestTimeout(c *Config, s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 || d > MaxRequestTimeout {
		return fmt.Errorf("must be a positive duration up to %s, such as 5s or 500ms", MaxRequestTimeout)
	}
	c.RequestTimeout = d
	return nil
}

// setDebugAddr accepts an empty address (no admin server) or host:port with
// a loopback host. An empty host is refused too: it means every interface.
func setDebugAddr(c *Config, s string) error {
	if s == "" {
		c.DebugAddr = ""
		return nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return errors.New("must be empty or host:port on loopback, for example 127.0.0.1:6060")
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return errors.New("port must be a number from 0 to 65535")
	}
	if !isLoopback(host) {
		return errors.New("host must be loopback (127.0.0.0/8, ::1 or localhost): the profiler must not be reachable from the network")
	}
	c.DebugAddr = s
	return nil
}

// setMetricsAddr accepts an empty address (no metrics server) or host:port
// with any host, the empty host (every interface) included.
func setMetricsAddr(c *Config, s string) error {
	if s == "" {
		c.MetricsAddr = ""
		return nil
	}
	if _, port, err := net.SplitHostPort(s); err != nil {
		return errors.New("must be empty or host:port, for example :9100")
	} else if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return errors.New("port must be a number from 0 to 65535")
	}
	c.MetricsAddr = s
	return nil
}

// isLoopback reports whether host names only this machine: localhost or a
// loopback IP. Other names are refused rather than resolved, since what a
// name resolves to can change after the check.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
