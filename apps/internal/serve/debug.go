package serve

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"crudbench/apps/internal/admin"
)

// startDebug serves admin.Handler, with metrics at /metrics, on addr
// (DEBUG_ADDR) in the background, logs "debug listening" with the bound
// address, and returns the function that stops it.
//
// Its write timeout is the public server's default; pprof extends a
// request's write deadline by the seconds of the profile or trace it asks
// for.
func startDebug(logger *slog.Logger, addr string, metrics http.Handler) (stop func(), err error) {
	return startAside(logger, "debug", addr, &http.Server{
		Handler:           admin.Handler(metrics),
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      30 * time.Second,
	})
}

// startAside serves srv on addr in the background, beside the app's public
// server, logs "<name> listening" with the bound address, and returns the
// function that stops it. Stopping closes it at once rather than
// gracefully, so that a profile or a scrape in progress cannot hold up the
// app's shutdown (its request's context ends and pprof stops profiling).
func startAside(logger *slog.Logger, name, addr string, srv *http.Server) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: %s address: %w", name, err)
	}
	srv.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	srv.MaxHeaderBytes = MaxHeaderBytes // the app's budget; the metrics address may be public
	go srv.Serve(ln)
	logger.Info(name+" listening", "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}
