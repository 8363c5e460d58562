// Command graphql is crudbench's GraphQL app: the staff register and its
// vacancies over GraphQL (gqlgen), on the shared data layer. It serves
// POST /graphql (and GET /graphql for queries), GraphiQL at /, and the
// /healthz and /readyz probes.
//
// Configuration comes from the environment, flags overriding: DATABASE_URL,
// ADDR (default :8082), DB_MAX_CONNS, LOG_LEVEL, AUTH_SECRET, TOKEN_TTL,
// REQUEST_TIMEOUT, DEBUG_ADDR (a loopback admin address serving
// net/http/pprof and /metrics; empty serves none) and METRICS_ADDR (the
// same /metrics alone, any interface; empty serves none), see -h, plus
// GRAPHQL_INTROSPECTION=false to hide the schema from clients.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/config"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "graphql:", err)
		os.Exit(1)
	}
}

// defaultAddr is the GraphQL app's port; rest has 8081 and htmx 8083.
const defaultAddr = ":8082"

// run starts the app and serves until ctx is done or SIGINT/SIGTERM arrives.
// Logs (JSON) go to stdout; usage and flag errors to stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load("graphql", args, getenv, defaultAddr, stderr)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stderr, "\nAlso: GRAPHQL_INTROSPECTION=false hides the schema from clients (default true).")
		return nil
	}
	if err != nil {
		return err
	}
	introspection, err := introspectionFromEnv(getenv)
	if err != nil {
		return err
	}
	logger := cfg.Logger(stdout)
	if cfg.UsesDevAuthSecret() {
		logger.Warn("AUTH_SECRET is not set: tokens are signed with the public development secret")
	}

	ctx, cancel := serve.SignalContext(ctx)
	defer cancel()
	store, err := db.Open(ctx, cfg.DatabaseURL, db.Options{MaxConns: cfg.DBMaxConns, StatementTimeout: cfg.RequestTimeout})
	if err != nil {
		return err
	}
	defer store.Close()
	tokens := auth.NewTokens(cfg.AuthSecret, cfg.TokenTTL)

	m := metrics.New(store.PoolStats)
	srv := NewServer(logger, store, tokens, cfg.RequestTimeout, Options{Introspection: introspection}, m)
	return serve.Run(ctx, logger, cfg.Addr, srv, serve.Options{DebugAddr: cfg.DebugAddr, MetricsAddr: cfg.MetricsAddr, Metrics: m.Handler()})
}

// introspectionFromEnv reads GRAPHQL_INTROSPECTION: on unless set to false.
func introspectionFromEnv(getenv func(string) string) (bool, error) {
	v := getenv("GRAPHQL_INTROSPECTION")
	if v == "" {
		return true, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("GRAPHQL_INTROSPECTION: %q is not true or false", v)
	}
	return on, nil
}
