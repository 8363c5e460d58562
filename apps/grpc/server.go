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

// maxStreams is how many streams one connection may have open at once
// (SETTINGS_MAX_CONCURRENT_STREAMS; the one past it is refused with
// REFUSED_STREAM, and grpc-go's client waits for a free one instead of
// sending it). 100 is the least RFC 9113 recommends (§6.5.2) and the
// bench's -max-connections default, so one gRPC connection carries as
// many calls at once as the HTTP apps get connections from it; beyond
// the pool's DB_MAX_CONNS (20) calls wait for a database connection
// anyway. With the request deadline it bounds what one connection holds:
// 100 handlers for at most REQUEST_TIMEOUT each. grpc-go's default is
// unlimited.
const maxStreams = 100

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
// recovery, the client's deadline, the bearer token and the enums. Every
// stream gets its deadline (the client's, capped by timeout) and its
// metadata budget when it arrives (admit), before its request is read.
// It also returns the health service, for the shutdown to mark
// NOT_SERVING.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, m *metrics.Metrics) (*grpc.Server, *readiness) {
	srv := grpc.NewServer(
		grpc.MaxRecvMsgSize(maxMessageBytes),
		grpc.MaxConcurrentStreams(maxStreams),
		grpc.MaxHeaderListSize(serve.MaxHeaderBytes),
		grpc.InTapHandle(admit(timeout)),
		grpc.ChainUnaryInterceptor(
			observe(logger, m),
			recoverPanic(logger),
			deadline(),
			authenticate(tokens),
			knownEnums(),
		),
	)
	health := newReadiness(store)
	addServices(srv, &staff{store: store, tokens: tokens}, health)
	reflection.Register(srv)
	return srv, health
}
