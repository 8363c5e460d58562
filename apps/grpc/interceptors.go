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
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/proto"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
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

// errRequestTimeout is why a stream's context ends at the server's
// deadline (context.Cause), where the client's deadline leaves
// context.DeadlineExceeded: the two are answered differently (deadline).
var errRequestTimeout = errors.New("the server's request deadline (REQUEST_TIMEOUT) ran out")

// admit is the first look at every stream, when its headers arrive and
// before its request is read. It refuses metadata of more entries than
// the HTTP apps' header fields (serve.MaxHeaderFields) with
// RESOURCE_EXHAUSTED (their size is bounded already, by
// grpc.MaxHeaderListSize), and gives the stream the earlier of the
// client's deadline and timeout (REQUEST_TIMEOUT) from now, the HTTP apps'
// request deadline. grpc-go reads the request under it, so a client that
// sends its request a byte at a time, or never, is answered
// DEADLINE_EXCEEDED at the deadline instead of holding the stream; the
// handler then runs under what is left of it.
//
// The deadline applies to every stream, the streaming calls of health
// (Watch) and reflection too: a watcher watches again.
func admit(timeout time.Duration) tap.ServerInHandle {
	return func(ctx context.Context, info *tap.Info) (context.Context, error) {
		entries := 0
		for _, vals := range info.Header {
			entries += len(vals)
		}
		if entries > serve.MaxHeaderFields {
			return nil, status.Errorf(codes.ResourceExhausted, "more than %d metadata entries", serve.MaxHeaderFields)
		}
		// The cancel is grpc-go's: it cancels the stream's context, this
		// one's parent, when the stream ends, which stops the timer.
		ctx, cancel := context.WithTimeoutCause(ctx, timeout, errRequestTimeout)
		_ = cancel
		return ctx, nil
	}
}

// deadline answers DEADLINE_EXCEEDED for a call that failed once the
// client's deadline ran out, as the client's library reports it when its
// own timer fires first: which of the two reaches the client first is a
// race a busy machine decides, and the code must not depend on it. When
// the server's deadline (admit) was the earlier, the Store's answer
// stands: EUNAVAILABLE, which the client sees as UNAVAILABLE with
// RetryInfo.
func deadline() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		resp, err := handler(ctx, req)
		if err != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
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
