package main

import (
	"context"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/db"
)

// pingTimeout bounds the database check of a health Check, like the HTTP
// apps' /readyz.
const pingTimeout = 2 * time.Second

// readiness is the standard health service, with Check answering from the
// database: SERVING when it answers a ping, NOT_SERVING when it does not
// or when the server is shutting down, for the service "" (the server)
// and "crudbench.v1.Staff" alike; any other name is NOT_FOUND. It is the
// /readyz of this app: a runner asks Check with service "". Watch is
// grpc-go's, which only reports the shutdown.
type readiness struct {
	*health.Server
	store    *db.Store
	stopping atomic.Bool
}

func newReadiness(store *db.Store) *readiness {
	return &readiness{Server: health.NewServer(), store: store}
}

// Check implements healthpb.HealthServer.
func (h *readiness) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if req.GetService() != "" && req.GetService() != "crudbench.v1.Staff" {
		return h.Server.Check(ctx, req)
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if h.stopping.Load() || h.store.Ping(ctx) != nil {
		return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING}, nil
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// Shutdown marks every service NOT_SERVING, for Check and Watch alike.
func (h *readiness) Shutdown() {
	h.stopping.Store(true)
	h.Server.Shutdown()
}
