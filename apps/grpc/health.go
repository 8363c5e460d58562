package main

import (
	"context"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/db"
)

// pingTimeout bounds the database check of a health Check, like the HTTP
// apps' /readyz.
const pingTimeout = 2 * time.Second

// readiness is the standard health service, split as the HTTP apps split
// /healthz and /readyz. Service "" (the server as a whole) answers SERVING
// while the process serves, without the database: it is this app's
// /healthz, the floor the bench's control scenario measures, and a
// liveness probe that does not restart a server for its database's
// outage. Service "crudbench.v1.Staff" answers from the database: SERVING
// when it answers a ping, NOT_SERVING when it does not; it is this app's
// /readyz, which the runner and the container's health check ask. Both
// answer NOT_SERVING once the server is shutting down; any other name is
// NOT_FOUND. Watch is grpc-go's, which only reports the shutdown.
type readiness struct {
	*health.Server
	store    *db.Store
	stopping atomic.Bool
}

// staffService is the name whose health is the database's.
var staffService = crudbenchv1.Staff_ServiceDesc.ServiceName

func newReadiness(store *db.Store) *readiness {
	return &readiness{Server: health.NewServer(), store: store}
}

// Check implements healthpb.HealthServer.
func (h *readiness) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	switch {
	case req.GetService() != "" && req.GetService() != staffService:
		return h.Server.Check(ctx, req)
	case h.stopping.Load():
		return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING}, nil
	case req.GetService() == "":
		return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if h.store.Ping(ctx) != nil {
		return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING}, nil
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

// Shutdown marks every service NOT_SERVING, for Check and Watch alike.
func (h *readiness) Shutdown() {
	h.stopping.Store(true)
	h.Server.Shutdown()
}
