// Package launch is the start-up sequence the Go apps share, so that
// they read their configuration, warn, catch signals, open the Store and
// serve in the same order and with the same words: each app's main.go only
// names what differs (its name, address, own settings and handler).
package launch

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/config"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// DevSecretWarning is logged at start-up when tokens (the APIs' bearer
// tokens and the site's session cookie alike) are signed with the public
// config.DevAuthSecret.
const DevSecretWarning = "tokens are signed with the public development secret (AUTH_SECRET unset, or set to it): set a secret of your own"

// App is what one app brings to the shared start-up.
type App struct {
	Name string // the command's name, for -h and error messages
	Addr string // the default listen address (ADDR)
	// Settings are the app's own, read with the shared ones (config.Setting).
	Settings []config.Setting
	// Handler builds the app's whole HTTP surface from the shared
	// dependencies; an error (a template that does not parse) stops the
	// app before it listens.
	Handler func(Deps) (http.Handler, error)
	// Serve, set instead of Handler by an app that is not an HTTP server
	// (grpc), listens on Deps.Config.Addr and serves until ctx is done,
	// then stops gracefully; the admin and metrics servers run beside it
	// as beside every app.
	Serve func(ctx context.Context, d Deps) error
}

// Deps are the dependencies every app's handler is built from.
type Deps struct {
	Config  config.Config
	Logger  *slog.Logger
	Store   *db.Store
	Tokens  *auth.Tokens
	Metrics *metrics.Metrics
}

// Main runs run with the process's arguments, environment and standard
// streams and exits 1, the error on stderr after the app's name, when it
// fails.
func Main(name string, run func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error) {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// Run is an app's whole life: read the configuration (args and getenv;
// usage and flag errors go to stderr, and -h returns nil after printing
// it), log JSON to stdout, warn about the development secret, catch SIGINT
// and SIGTERM, open the Store (which does not connect: an app starts while
// the database is down and answers 503 until it is back), build the
// handler and serve it until ctx is done or a signal arrives.
func Run(ctx context.Context, app App, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load(app.Name, args, getenv, app.Addr, stderr, app.Settings...)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	logger := cfg.Logger(stdout)
	if cfg.UsesDevAuthSecret() {
		logger.Warn(DevSecretWarning)
	}

	ctx, stop := serve.SignalContext(ctx)
	defer stop()

	store, err := db.Open(ctx, cfg.DatabaseURL, db.Options{MaxConns: cfg.DBMaxConns, StatementTimeout: cfg.RequestTimeout})
	if err != nil {
		return err
	}
	defer store.Close()
	m := metrics.New(store.PoolStats)
	deps := Deps{
		Config:  cfg,
		Logger:  logger,
		Store:   store,
		Tokens:  auth.NewTokens(cfg.AuthSecret, cfg.TokenTTL),
		Metrics: m,
	}
	aside := serve.Options{DebugAddr: cfg.DebugAddr, MetricsAddr: cfg.MetricsAddr, Metrics: m.Handler()}
	if app.Serve != nil {
		stopAside, err := serve.StartAside(logger, aside)
		if err != nil {
			return err
		}
		defer stopAside()
		return app.Serve(ctx, deps)
	}
	h, err := app.Handler(deps)
	if err != nil {
		return err
	}
	return serve.Run(ctx, logger, cfg.Addr, h, aside)
}
