package main

import (
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// maxMessageBytes caps a received message at the HTTP apps' body limit; a
// larger one is RESOURCE_EXHAUSTED before any handler runs. Sent messages
// keep grpc-go's 4 MiB default, which the largest page (1000 persons) is
// far below.
const maxMessageBytes = serve.MaxBodyBytes

// staff implements crudbench.v1.Staff over the Store; its methods live in
// one file per resource (login.go, persons.go, vacancies.go).
type staff struct {
	crudbenchv1.UnimplementedStaffServer
	store  *db.Store
	tokens *auth.Tokens
}

// NewServer returns the gRPC app's server, its services registered
// (addServices) behind the unary interceptors every call passes through,
// outermost first: metrics, logging and the error translator, panic
// recovery, the deadline (the client's, capped by timeout), the bearer
// token and the enums. It also returns the health service, for the shutdown to mark
// NOT_SERVING.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, m *metrics.Metrics) (*grpc.Server, *readiness) {
	srv := grpc.NewServer(
		grpc.MaxRecvMsgSize(maxMessageBytes),
		grpc.ChainUnaryInterceptor(
			observe(logger, m),
			recoverPanic(logger),
			deadline(timeout),
			authenticate(tokens),
			knownEnums(),
		),
	)
	health := newReadiness(store)
	addServices(srv, &staff{store: store, tokens: tokens}, health)
	reflection.Register(srv)
	return srv, health
}
