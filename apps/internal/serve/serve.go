// Package serve runs an app's HTTP server with the timeouts and graceful
// shutdown every crudbench app needs, plus the middleware policy the three
// apps share (Stack): panic recovery, request IDs, the request deadline, the
// body limit and request logging (debug only), and how a handler's error is
// logged (LogError).
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
func Run(ctx context.Context, logger *slog.Logger, addr string, h http.Handler, opts Options) error {
	opts = opts.withDefaults()
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

// SignalContext returns a context cancelled on SIGINT or SIGTERM, so that
// Ctrl-C and container stops both trigger Run's graceful shutdown. Calling
// cancel restores the default signal behaviour.
func SignalContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}
