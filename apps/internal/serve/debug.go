package serve

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"crudbench/apps/internal/admin"
)

// startDebug serves admin.Handler on addr (DEBUG_ADDR) in the background,
// logs "debug listening" with the bound address, and returns the function
// that stops it.
//
// The admin server has no read or write timeout: a CPU profile's response
// takes as long as the profile asked for, and pprof refuses a duration
// beyond the server's write timeout. Stopping closes it at once rather than
// gracefully, so that a profile in progress cannot hold up the app's
// shutdown (its request's context ends and pprof stops it).
func startDebug(logger *slog.Logger, addr string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: debug address: %w", err)
	}
	srv := &http.Server{
		Handler:           admin.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	go srv.Serve(ln)
	logger.Info("debug listening", "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}
