// Command htmx is crudbench's server-rendered site: the staff register and
// its vacancies as HTML pages (html/template) made interactive with htmx,
// over the same Store as the REST and GraphQL apps. Every page and form also
// works with JavaScript off.
//
// Configuration comes from the environment with flags as overrides
// (DATABASE_URL, ADDR [:8083], DB_MAX_CONNS, LOG_LEVEL, AUTH_SECRET,
// TOKEN_TTL, REQUEST_TIMEOUT, DEBUG_ADDR: a loopback admin address serving
// net/http/pprof and /metrics, none when empty; METRICS_ADDR: the same
// /metrics alone, any interface, none when empty); run it with -h for the
// list. It logs JSON to stdout and stops gracefully on SIGINT or SIGTERM.
//
// HTMX_RENDERER=templ starts the tuned variant: the same site, with its most
// read pages rendered by compiled templ components instead of html/template
// (see compiled.go). Unset, or "template", is the default.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/config"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// defaultAddr is the site's listen address unless ADDR or -addr says
// otherwise (REST listens on :8081, GraphQL on :8082).
const defaultAddr = ":8083"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "htmx:", err)
		os.Exit(1)
	}
}

// run is the whole program: read the configuration, open the Store, parse
// the templates and serve until ctx is cancelled or a signal arrives. Logs go
// to stdout, usage and flag errors to stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load("htmx", args, getenv, defaultAddr, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := cfg.Logger(stdout)
	if cfg.UsesDevAuthSecret() {
		logger.Warn("AUTH_SECRET is not set: signing sessions with the public development secret")
	}

	ctx, stop := serve.SignalContext(ctx)
	defer stop()

	static, err := loadStatic()
	if err != nil {
		return err
	}
	views, err := loadViews(logger, static, getenv("HTMX_RENDERER"))
	if err != nil {
		return err
	}
	// Open does not connect: the site starts while the database is down and
	// answers 503 until it is back.
	store, err := db.Open(ctx, cfg.DatabaseURL, db.Options{MaxConns: cfg.DBMaxConns, StatementTimeout: cfg.RequestTimeout})
	if err != nil {
		return err
	}
	defer store.Close()

	tokens := auth.NewTokens(cfg.AuthSecret, cfg.TokenTTL)
	m := metrics.New(store.PoolStats)
	srv := NewServer(logger, store, tokens, cfg.RequestTimeout, views, m)
	return serve.Run(ctx, logger, cfg.Addr, srv, serve.Options{DebugAddr: cfg.DebugAddr, MetricsAddr: cfg.MetricsAddr, Metrics: m.Handler()})
}
