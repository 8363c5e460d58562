package main

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/db"
)

// observe records every call in the metrics and, at debug level, the log,
// after translating the handler's error (statusOf), so that both see the
// code the client gets.
//
// Whether to log is decided once, as the HTTP apps' middleware does: the
// level is fixed at start-up, and a disabled debug call still boxes its
// arguments on every call.
func observe(logger *slog.Logger, m *metrics.Metrics) grpc.UnaryServerInterceptor {
	debug := logger.Enabled(context.Background(), slog.LevelDebug)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		if err != nil {
			err = statusOf(ctx, logger, err)
		}
		code := status.Code(err).String()
		took := time.Since(start)
		m.ObserveRPC(info.FullMethod, code, took)
		if debug {
			logger.LogAttrs(ctx, slog.LevelDebug, "call", slog.String("method", info.FullMethod), slog.String("code", code), slog.Duration("duration", took))
		}
		return resp, err
	}
}

// recoverPanic answers a handler's panic INTERNAL and logs it with its
// stack, so that one bad call cannot take the process down.
func recoverPanic(logger *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if p := recover(); p != nil {
				logger.ErrorContext(ctx, "panic", "method", info.FullMethod, "panic", p, "stack", string(debug.Stack()))
				resp, err = nil, status.Error(codes.Internal, "internal error")
			}
		}()
		return handler(ctx, req)
	}
}

// deadline gives every call the earlier of the client's deadline and
// timeout (REQUEST_TIMEOUT), the HTTP apps' request deadline. The Store
// answers a call that runs out of it EUNAVAILABLE, which the client sees
// as UNAVAILABLE with RetryInfo when timeout was the earlier. When the
// client's deadline was, the answer is DEADLINE_EXCEEDED, as the client's
// library reports it when its own timer fires first: which of the two
// reaches the client first is a race a busy machine decides, and the code
// must not depend on it.
func deadline(timeout time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		inner, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		resp, err := handler(inner, req)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, status.Error(codes.DeadlineExceeded, "the call's deadline ran out before the database answered")
		}
		return resp, err
	}
}

// authenticate checks the bearer token in the "authorization" metadata of
// every call staffAccess does not leave open, and the editor role of the
// writes, and stores the claims in the context (auth.FromContext).
func authenticate(tokens *auth.Tokens) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		need := staffAccess[info.FullMethod]
		if need == open {
			return handler(ctx, req)
		}
		claims, err := tokens.Verify(bearerToken(ctx))
		switch {
		case errors.Is(err, auth.ErrExpiredToken):
			return nil, status.Error(codes.Unauthenticated, "the token has expired: log in again")
		case err != nil:
			return nil, status.Error(codes.Unauthenticated, "send a valid token from Login as metadata authorization: Bearer <token>")
		case need == editor && !claims.Role.CanWrite():
			return nil, status.Error(codes.PermissionDenied, "your role may read but not change data")
		}
		return handler(auth.WithClaims(ctx, claims), req)
	}
}

// bearerToken is the token of the call's "authorization: Bearer <token>"
// metadata (the scheme in any case, as RFC 9110 has it), or "".
func bearerToken(ctx context.Context) string {
	vals := metadata.ValueFromIncomingContext(ctx, "authorization")
	if len(vals) != 1 {
		return ""
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// knownEnums refuses a request with an enum number its enum does not
// declare, which proto3 keeps as the number: INVALID_ARGUMENT naming each
// such field, before any handler could take the number for another value
// (the Store reads an unknown status as none, which is a draft).
func knownEnums() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if m, ok := req.(proto.Message); ok {
			if fields := unknownEnums(m.ProtoReflect(), "", nil); len(fields) > 0 {
				return nil, &db.Error{Code: db.EINVALID, Message: "invalid input", Fields: fields}
			}
		}
		return handler(ctx, req)
	}
}
