// Command rest is crudbench's REST app: the person and vacancy CRUD API as
// JSON over HTTP (go-chi), described by an OpenAPI 3.1 document served at
// /openapi.yaml.
//
// It reads DATABASE_URL, ADDR (default :8081), DB_MAX_CONNS, LOG_LEVEL,
// AUTH_SECRET, TOKEN_TTL, REQUEST_TIMEOUT, DEBUG_ADDR (a loopback admin
// address serving net/http/pprof and Prometheus metrics at /metrics; empty,
// the default, serves none) and METRICS_ADDR (the same metrics alone, on
// any interface; empty serves none) from the environment; flags of the same
// names (-database-url, -addr, …) override them. Logs are JSON lines on stdout. SIGINT or SIGTERM shuts it down
// gracefully.
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

func main() {
	err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rest:", err)
		os.Exit(1)
	}
}

// run starts the app and serves until ctx is done or a signal arrives.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	ctx, stop := serve.SignalContext(ctx)
	defer stop()

	cfg, err := config.Load("rest", args, getenv, ":8081", stderr)
	if err != nil {
		return err
	}
	logger := cfg.Logger(stdout)
	if cfg.UsesDevAuthSecret() {
		logger.Warn("AUTH_SECRET is not set: tokens are signed with the public development secret")
	}
	store, err := db.Open(ctx, cfg.DatabaseURL, db.Options{MaxConns: cfg.DBMaxConns, StatementTimeout: cfg.RequestTimeout})
	if err != nil {
		return err
	}
	defer store.Close()
	tokens := auth.NewTokens(cfg.AuthSecret, cfg.TokenTTL)
	m := metrics.New(store.PoolStats)
	return serve.Run(ctx, logger, cfg.Addr, NewServer(logger, store, tokens, cfg.RequestTimeout, m),
		serve.Options{DebugAddr: cfg.DebugAddr, MetricsAddr: cfg.MetricsAddr, Metrics: m.Handler()})
}
