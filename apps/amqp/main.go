// Command amqp is crudbench's asynchronous app: the REST app's operations
// as request/reply RPC over AMQP 0-9-1 (RabbitMQ, rabbitmq/amqp091-go).
// It consumes one request queue, runs each request's operation (the
// message's type) on the shared Store, and answers on the request's
// reply-to (RabbitMQ's direct reply-to) with the request's correlation id,
// a status header and REST's JSON body.
//
// It reads the settings every app reads (DATABASE_URL, ADDR (default
// :8092, the HTTP admin port serving /healthz and /readyz), DB_MAX_CONNS,
// LOG_LEVEL, AUTH_SECRET, TOKEN_TTL, REQUEST_TIMEOUT, DEBUG_ADDR,
// METRICS_ADDR) and its own (AMQP_URL, AMQP_QUEUE, AMQP_PREFETCH) from the
// environment or flags of the same names, logs JSON lines on stdout, and
// stops gracefully on SIGINT or SIGTERM: it stops consuming, answers the
// requests it holds, and acks nothing it did not answer.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"crudbench/apps/internal/config"
	"crudbench/apps/internal/launch"
)

// defaultAddr is the admin port, after grpc-node's 8091.
const defaultAddr = ":8092"

// Defaults of the app's own settings.
const (
	defaultURL   = "amqp://guest:guest@localhost:5672/"
	defaultQueue = "crudbench.requests"
	// defaultPrefetch is twice the pool's default size (DB_MAX_CONNS 20):
	// a database connection that comes free finds a request already here,
	// and a replica holds no more than it can start soon, so that the
	// broker hands the rest to the other replicas on the queue.
	defaultPrefetch = 40
)

// settings are the app's own, beside the shared ones.
type settings struct {
	url      string
	queue    string
	prefetch int
}

func (s *settings) list() []config.Setting {
	return []config.Setting{
		{Flag: "amqp-url", Env: "AMQP_URL", Default: defaultURL, Usage: "the broker's AMQP `url` (amqp://user:pass@host:port/vhost)", Set: s.setURL},
		{Flag: "amqp-queue", Env: "AMQP_QUEUE", Default: defaultQueue, Usage: "the request queue's `name`", Set: s.setQueue},
		{Flag: "amqp-prefetch", Env: "AMQP_PREFETCH", Default: strconv.Itoa(defaultPrefetch), Usage: "requests held unanswered at once (basic.qos prefetch), `n` in 1..1000", Set: s.setPrefetch},
	}
}

func (s *settings) setURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "amqp" && u.Scheme != "amqps") || u.Host == "" {
		// The value may hold a password: it is not echoed.
		return errors.New("must be an amqp:// or amqps:// URL with a host")
	}
	s.url = v
	return nil
}

func (s *settings) setQueue(v string) error {
	// RabbitMQ refuses the amq. prefix to clients; 255 bytes is AMQP's shortstr.
	if v == "" || len(v) > 255 || strings.HasPrefix(v, "amq.") {
		return errors.New("must be 1 to 255 bytes and not start with amq.")
	}
	s.queue = v
	return nil
}

func (s *settings) setPrefetch(v string) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > 1000 {
		return errors.New("must be a whole number from 1 to 1000")
	}
	s.prefetch = n
	return nil
}

func main() { launch.Main("amqp", run) }

// run is the app's whole life: launch.Run's start-up (configuration,
// logger, signals, Store, admin and metrics servers), then the consumer
// and the HTTP admin port until ctx is done or a signal arrives.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var own settings
	app := launch.App{
		Name:     "amqp",
		Addr:     defaultAddr,
		Settings: own.list(),
		Serve: func(ctx context.Context, d launch.Deps) error {
			srv := NewServer(d.Logger, d.Store, d.Tokens, d.Config.RequestTimeout, d.Metrics)
			c := newConsumer(d.Logger, own.url, own.queue, own.prefetch, srv.Handle)
			if err := serveQueue(ctx, d, c); err != nil {
				return fmt.Errorf("amqp: %w", err)
			}
			return nil
		},
	}
	return launch.Run(ctx, app, args, getenv, stdout, stderr)
}
