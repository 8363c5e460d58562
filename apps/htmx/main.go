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
// Its own HTMX_RENDERER (-htmx-renderer) set to templ starts the tuned
// variant: the same site, with its most read pages rendered by compiled templ
// components instead of html/template (see compiled.go); "template" is the
// default. The start-up sequence is the one every Go app shares (package
// launch).
package main

import (
	"context"
	"io"
	"net/http"

	"crudbench/apps/internal/config"
	"crudbench/apps/internal/launch"
)

// defaultAddr is the site's listen address unless ADDR or -addr says
// otherwise (REST listens on :8081, GraphQL on :8082).
const defaultAddr = ":8083"

func main() { launch.Main("htmx", run) }

// run is the whole program: read the configuration, open the Store, parse
// the templates and serve until ctx is cancelled or a signal arrives. Logs go
// to stdout, usage and flag errors to stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	renderer := rendererTemplate
	app := launch.App{
		Name:     "htmx",
		Addr:     defaultAddr,
		Settings: []config.Setting{rendererSetting(&renderer)},
		Handler: func(d launch.Deps) (http.Handler, error) {
			static, err := loadStatic()
			if err != nil {
				return nil, err
			}
			views, err := loadViews(d.Logger, static, renderer)
			if err != nil {
				return nil, err
			}
			return NewServer(d.Logger, d.Store, d.Tokens, d.Config.RequestTimeout, views, d.Metrics), nil
		},
	}
	return launch.Run(ctx, app, args, getenv, stdout, stderr)
}

// rendererSetting is HTMX_RENDERER (-htmx-renderer): template, the
// default, or templ (see compiled.go).
func rendererSetting(renderer *string) config.Setting {
	return config.Setting{
		Flag: "htmx-renderer", Env: "HTMX_RENDERER", Default: rendererTemplate,
		Usage: "page `renderer`: " + rendererTemplate + " (html/template) or " + rendererTempl + " (compiled templ components for the most read pages)",
		Set: func(s string) error {
			if _, err := compiledFor(s); err != nil {
				return err
			}
			*renderer = s
			return nil
		},
	}
}
