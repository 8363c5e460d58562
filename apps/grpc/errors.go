package main

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	"crudbench/db"
)

// retryDelay is the RetryInfo of UNAVAILABLE: the HTTP apps' Retry-After.
const retryDelay = 5 * time.Second

// statusOf is the one translator from errors to gRPC statuses: a status
// made here already (authentication, permission) is kept; anything else
// is answered from its db.ErrorOf value, the code by the db error code.
// Internal details go to the log, never to the client.
//
// A stale version is ABORTED, not FAILED_PRECONDITION: the client fixes
// it by reading the vacancy again and retrying the whole
// read-modify-write, which is what ABORTED tells it (the gRPC status code
// guide and AIP-193).
func statusOf(ctx context.Context, logger *slog.Logger, err error) error {
	if s, ok := status.FromError(err); ok {
		return s.Err()
	}
	e := db.ErrorOf(err)
	switch e.Code {
	case db.EINVALID:
		return withDetail(codes.InvalidArgument, e.Message, badRequest(e.Fields))
	case db.ENOTFOUND:
		return status.Error(codes.NotFound, e.Message)
	case db.ECONFLICT:
		return status.Error(codes.Aborted, e.Message)
	case db.EUNAUTHORIZED:
		return status.Error(codes.Unauthenticated, e.Message)
	case db.EUNAVAILABLE:
		logger.WarnContext(ctx, "database unavailable", "err", e.Err)
		return withDetail(codes.Unavailable, e.Message, &errdetails.RetryInfo{RetryDelay: durationpb.New(retryDelay)})
	}
	logger.ErrorContext(ctx, "internal error", "err", e.Err)
	return status.Error(codes.Internal, e.Message)
}

// withDetail returns a status with one detail attached.
func withDetail(code codes.Code, msg string, detail protoadapt.MessageV1) error {
	s, err := status.New(code, msg).WithDetails(detail)
	if err != nil {
		return status.Error(code, msg) // only a detail that cannot be marshalled fails
	}
	return s.Err()
}

// badRequest lists the fields in a stable order, each named by its proto
// field path (the store's camelCase names in snake_case).
func badRequest(fields map[string]string) *errdetails.BadRequest {
	br := &errdetails.BadRequest{}
	for _, f := range slices.Sorted(maps.Keys(fields)) {
		br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{
			Field: snakeCase(f), Description: fields[f],
		})
	}
	return br
}

// snakeCase turns "salaryMinCents" into "salary_min_cents"; a path
// ("vacancy.salaryMinCents") keeps its dots.
func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// invalidField is the EINVALID error of one request field.
func invalidField(field, msg string) error {
	return &db.Error{Code: db.EINVALID, Message: "invalid input", Fields: map[string]string{field: msg}}
}

// renameFields returns err with its fields renamed by names (the store's
// name to the request's), and the rest under prefix ("vacancy."), so that
// a field violation names the request field that was wrong.
func renameFields(err error, prefix string, names map[string]string) error {
	e, ok := errors.AsType[*db.Error](err)
	if !ok || e.Code != db.EINVALID {
		return err
	}
	out := *e
	out.Fields = make(map[string]string, len(e.Fields))
	for k, v := range e.Fields {
		if n, ok := names[k]; ok {
			out.Fields[n] = v
		} else {
			out.Fields[prefix+k] = v
		}
	}
	return &out
}
