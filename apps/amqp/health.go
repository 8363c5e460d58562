package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"crudbench/apps/internal/health"
	"crudbench/apps/internal/launch"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// serveQueue runs the consumer and, on d.Config.Addr, the HTTP admin port
// (adminHandler) until ctx ends, then stops both: the consumer answers
// what it holds, the admin port closes.
func serveQueue(ctx context.Context, d launch.Deps, c *consumer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	admin := make(chan error, 1)
	go func() {
		err := serveAdmin(ctx, d, c)
		if err != nil {
			cancel()
		}
		admin <- err
	}()
	consumed := c.run(ctx)
	cancel()
	return errors.Join(consumed, <-admin)
}

// serveAdmin serves the admin port; its failure to listen stops the app.
func serveAdmin(ctx context.Context, d launch.Deps, c *consumer) error {
	err := serve.Run(ctx, d.Logger, d.Config.Addr, adminHandler(d.Store, c), serve.Options{})
	if err != nil {
		return fmt.Errorf("admin port: %w", err)
	}
	return nil
}

// adminHandler is what the admin port serves: GET /healthz (the process
// runs) and GET /readyz (the database answers and the consumer consumes:
// 503 while either is away), the HTTP apps' probes, for the runner and a
// container's health check. Metrics are on METRICS_ADDR and DEBUG_ADDR, as
// for every app.
func adminHandler(store *db.Store, c *consumer) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", health.Live())
	mux.Handle("GET /readyz", health.Ready(readiness{store: store, consumer: c}))
	return mux
}

// readiness is ready when the consumer consumes and the database answers.
type readiness struct {
	store    *db.Store
	consumer *consumer
}

var errNotConsuming = errors.New("not consuming: the broker is away")

// Ping implements health.Pinger.
func (r readiness) Ping(ctx context.Context) error {
	if !r.consumer.Consuming() {
		return errNotConsuming
	}
	return r.store.Ping(ctx)
}
