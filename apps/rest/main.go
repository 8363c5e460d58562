// Command rest is crudbench's REST app: the person and vacancy CRUD API as
// JSON over HTTP (go-chi), described by an OpenAPI 3.1 document served at
// /openapi.yaml.
//
// It reads DATABASE_URL, ADDR (default :8081), DB_MAX_CONNS, LOG_LEVEL,
// AUTH_SECRET, TOKEN_TTL, REQUEST_TIMEOUT, DEBUG_ADDR (a loopback admin
// address serving net/http/pprof and Prometheus metrics at /metrics; empty,
// the default, serves none) and METRICS_ADDR (the same metrics alone, on
// any interface; empty serves none) from the environment; flags of the same
// names (-database-url, -addr, …) override them. Logs are JSON lines on
// stdout. SIGINT or SIGTERM shuts it down gracefully. The start-up sequence
// is the one every Go app shares (package launch).
package main

import (
	"context"
	"io"
	"net/http"

	"crudbench/apps/internal/launch"
)

// defaultAddr is the REST app's port; graphql has 8082 and htmx 8083.
const defaultAddr = ":8081"

func main() { launch.Main("rest", run) }

// run starts the app and serves until ctx is done or a signal arrives.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	app := launch.App{
		Name: "rest",
		Addr: defaultAddr,
		Handler: func(d launch.Deps) (http.Handler, error) {
			return NewServer(d.Logger, d.Store, d.Tokens, d.Config.RequestTimeout, d.Metrics), nil
		},
	}
	return launch.Run(ctx, app, args, getenv, stdout, stderr)
}
