// Package serve runs an app's HTTP server with the timeouts and graceful
// shutdown every crudbench app needs, and beside it, when asked, the admin
// server on its loopback address (DEBUG_ADDR) and the metrics-only server
// (METRICS_ADDR); the protocol rules every app keeps before any handler
// runs (the header budget, framing); the middleware policy the apps share
// (Stack): panic recovery, request IDs, the request deadline (reading the
// body included), the body limit and request logging (debug only), and how
// a handler's error is logged (LogError); and what every app answers the
// same way: a 405 with Allow from its router (MethodNotAllowed) and a
// buffered response with its length (Respond).
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Options tunes Run. Zero durations take the defaults in brackets.
type Options struct {
	ReadHeaderTimeout time.Duration // [5s] slow-loris guard
	ReadTimeout       time.Duration // [15s] whole request, body included
	WriteTimeout      time.Duration // [30s] from the end of the request headers to the end of the response
	IdleTimeout       time.Duration // [120s] keep-alive connections between requests
	ShutdownTimeout   time.Duration // [10s] how long in-flight requests get to finish

	// Ready, when set, is called with the bound address once the server
	// accepts connections; useful with ":0".
	Ready func(addr net.Addr)

	// DebugAddr, when set (DEBUG_ADDR), is where Run also serves the admin
	// endpoints (package admin), on a server of their own that stops with
	// the app. Checking that it is loopback is config's job.
	DebugAddr string
	// MetricsAddr, when set (METRICS_ADDR), is where Run also serves
	// Metrics and nothing else, on a server of its own that stops with the
	// app. It may be any interface: pprof is never served there.
	MetricsAddr string
	// Metrics, when set, is served at /metrics on DebugAddr and MetricsAddr
	// (the app's Prometheus handler, package metrics); MetricsAddr needs it.
	Metrics http.Handler
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ReadHeaderTimeout, 5*time.Second)
	def(&o.ReadTimeout, 15*time.Second)
	def(&o.WriteTimeout, 30*time.Second)
	def(&o.IdleTimeout, 120*time.Second)
	def(&o.ShutdownTimeout, 10*time.Second)
	return o
}

// Run listens on addr and serves h until ctx is done, then shuts down
// gracefully: it stops accepting connections and lets in-flight requests
// finish for up to opts.ShutdownTimeout. It logs "listening" with the bound
// address. Run returns nil after a clean shutdown and an error when it cannot
// listen, the server fails, or requests were still running at the deadline.
//
// With opts.DebugAddr it first starts the admin server there and logs
// "debug listening" with its bound address (before "listening", so whoever
// waits for "listening" has both); the admin server is closed when Run
// returns. With opts.MetricsAddr it does the same for the metrics server,
// logging "metrics listening".
func Run(ctx context.Context, logger *slog.Logger, addr string, h http.Handler, opts Options) error {
	opts = opts.withDefaults()
	stopAside, err := StartAside(logger, opts)
	if err != nil {
		return err
	}
	defer stopAside()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		// net/http's own complaints (bad TLS handshakes, accept errors) go
		// to the app's structured log.
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ln = guardProtocol(srv, ln)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("listening", "addr", ln.Addr().String())
	if opts.Ready != nil {
		opts.Ready(ln.Addr())
	}

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}

	logger.Info("shutting down", "timeout", opts.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opts.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// StartAside starts what Run serves beside an app's public server: the
// admin server on opts.DebugAddr and the metrics server on
// opts.MetricsAddr, each only when its address is set, logging "debug
// listening" and "metrics listening". It returns the function that stops
// both. Apps that serve another protocol than HTTP (grpc) call it
// themselves.
func StartAside(logger *slog.Logger, opts Options) (stop func(), err error) {
	if opts.MetricsAddr != "" && opts.Metrics == nil {
		return nil, errors.New("serve: a metrics address needs a Metrics handler")
	}
	var stops []func()
	stopAll := func() {
		for _, s := range stops {
			s()
		}
	}
	if opts.DebugAddr != "" {
		s, err := startDebug(logger, opts.DebugAddr, opts.Metrics)
		if err != nil {
			return nil, err
		}
		stops = append(stops, s)
	}
	if opts.MetricsAddr != "" {
		s, err := startMetrics(logger, opts.MetricsAddr, opts.Metrics)
		if err != nil {
			stopAll()
			return nil, err
		}
		stops = append(stops, s)
	}
	return stopAll, nil
}

// SignalContext returns a context cancelled on SIGINT or SIGTERM, so that
// Ctrl-C and container stops both trigger Run's graceful shutdown. Calling
// cancel restores the default signal behaviour.
func SignalContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}
