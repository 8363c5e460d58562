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
// its own GRAPHQL_INTROSPECTION (-graphql-introspection=false hides the
// schema from clients). The start-up sequence is the one every Go app
// shares (package launch).
package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"

	"crudbench/apps/internal/config"
	"crudbench/apps/internal/launch"
)

// defaultAddr is the GraphQL app's port; rest has 8081 and htmx 8083.
const defaultAddr = ":8082"

func main() { launch.Main("graphql", run) }

// run starts the app and serves until ctx is done or SIGINT/SIGTERM arrives.
// Logs (JSON) go to stdout; usage and flag errors to stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var opts Options
	app := launch.App{
		Name:     "graphql",
		Addr:     defaultAddr,
		Settings: []config.Setting{introspectionSetting(&opts.Introspection)},
		Handler: func(d launch.Deps) (http.Handler, error) {
			return NewServer(d.Logger, d.Store, d.Tokens, d.Config.RequestTimeout, opts, d.Metrics), nil
		},
	}
	return launch.Run(ctx, app, args, getenv, stdout, stderr)
}

// introspectionSetting is GRAPHQL_INTROSPECTION (-graphql-introspection):
// true, the default, unless set to false.
func introspectionSetting(on *bool) config.Setting {
	return config.Setting{
		Flag: "graphql-introspection", Env: "GRAPHQL_INTROSPECTION", Default: "true",
		Usage: "whether clients may read the schema (GraphiQL needs it), a `bool`; false hides it",
		Set: func(s string) error {
			v, err := strconv.ParseBool(s)
			if err != nil {
				return errors.New("must be true or false")
			}
			*on = v
			return nil
		},
	}
}
