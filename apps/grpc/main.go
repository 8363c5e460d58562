// Command grpc is crudbench's gRPC app: the REST app's operations (login,
// the person detail, the person and vacancy lists, the vacancy writes) as
// the service crudbench.v1.Staff (resources/proto), with the standard
// health service and server reflection beside it.
//
// It reads the settings every app reads (DATABASE_URL, ADDR (default
// :8087), DB_MAX_CONNS, LOG_LEVEL, AUTH_SECRET, TOKEN_TTL, REQUEST_TIMEOUT,
// DEBUG_ADDR, METRICS_ADDR) from the environment or flags of the same
// names, logs JSON lines on stdout and stops gracefully on SIGINT or
// SIGTERM: in-flight calls get ShutdownTimeout to finish, then the rest
// are cancelled.
//
// grpc -healthcheck asks the app already running with the same ADDR its
// health service's Check and exits 1 unless it answers SERVING: the
// container's health check, since its image has no gRPC client.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/apps/internal/launch"
)

// defaultAddr follows the HTTP apps' 8081 to 8083.
const defaultAddr = ":8087"

// shutdownTimeout is how long in-flight calls get after a signal, the HTTP
// apps' default.
const shutdownTimeout = 10 * time.Second

func main() { launch.Main("grpc", run) }

// run is the app's whole life: launch.Run's start-up (configuration,
// logger, signals, Store, admin and metrics servers), then the gRPC server
// until ctx is done or a signal arrives.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 1 && args[0] == "-healthcheck" {
		return healthcheck(ctx, getenv("ADDR"))
	}
	return launch.Run(ctx, launch.App{Name: "grpc", Addr: defaultAddr, Serve: serveGRPC}, args, getenv, stdout, stderr)
}

// serveGRPC serves the app on d.Config.Addr until ctx is done, then turns
// its health NOT_SERVING and stops gracefully.
func serveGRPC(ctx context.Context, d launch.Deps) error {
	srv, health := NewServer(d.Logger, d.Store, d.Tokens, d.Config.RequestTimeout, d.Metrics)
	ln, err := net.Listen("tcp", d.Config.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	d.Logger.Info("listening", "addr", ln.Addr().String())

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	d.Logger.Info("shutting down", "timeout", shutdownTimeout)
	health.Shutdown()
	if !stopGracefully(srv, shutdownTimeout) {
		return errors.New("serve: shutdown: calls were still running at the deadline")
	}
	d.Logger.Info("stopped")
	return nil
}

// stopGracefully lets in-flight calls finish for up to timeout, then
// cancels the rest; it reports whether they all finished in time.
func stopGracefully(srv *grpc.Server, timeout time.Duration) bool {
	done := make(chan struct{})
	go func() {
		srv.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		srv.Stop()
		<-done
		return false
	}
}

// healthcheckTimeout bounds -healthcheck, well under compose's timeout.
const healthcheckTimeout = 2500 * time.Millisecond

// healthcheck asks Check of the service (its readiness: see readiness) of
// the app listening on addr (empty: defaultAddr; no host: loopback) and
// fails unless it answers SERVING, which it does when the database
// answers: honest where a TCP connect would only say that the port is
// open.
func healthcheck(ctx context.Context, addr string) error {
	if addr == "" {
		addr = defaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("healthcheck: ADDR %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	target := net.JoinHostPort(host, port)
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
	defer cancel()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: staffService})
	if err != nil {
		return fmt.Errorf("healthcheck: %s: %w", target, err)
	}
	if s := resp.GetStatus(); s != healthpb.HealthCheckResponse_SERVING {
		return fmt.Errorf("healthcheck: %s is %s", target, s)
	}
	return nil
}
