package main

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/httpproblem"
)

// unknownOperation answers a type that names no operation.
func (s *Server) unknownOperation(op string) error {
	names := slices.Sorted(maps.Keys(s.ops))
	msg := "is not an operation: one of " + strings.Join(names, ", ")
	if op == "" {
		msg = "is required: the operation, one of " + strings.Join(names, ", ")
	}
	return httpproblem.BadRequest("the message's type names no operation", map[string]string{"type": msg})
}

// authorize checks the bearer token of the "authorization" header (a
// string "Bearer <token>") against what op needs, and puts the claims in
// the context. The answers are REST's: 401 with what to do, 403 for a
// viewer writing.
func (s *Server) authorize(ctx context.Context, need access, req *request) (context.Context, error) {
	if need == open {
		return ctx, nil
	}
	token, sent := bearerToken(req.headers)
	if !sent {
		return ctx, &httpproblem.Error{Status: http.StatusUnauthorized, Detail: `log in first: send a login request, then the token as the header authorization: "Bearer <token>"`}
	}
	claims, err := s.tokens.Verify(token)
	switch {
	case errors.Is(err, auth.ErrExpiredToken):
		return ctx, &httpproblem.Error{Status: http.StatusUnauthorized, Detail: "the token has expired: log in again"}
	case err != nil:
		return ctx, &httpproblem.Error{Status: http.StatusUnauthorized, Detail: "the token is not valid: log in again"}
	case need == editor && !claims.Role.CanWrite():
		return ctx, &httpproblem.Error{Status: http.StatusForbidden, Detail: "your role may read but not change data"}
	}
	return auth.WithClaims(ctx, claims), nil
}

// bearerToken is the token of the "authorization" header, and whether
// the header was sent at all: a header that is not a string "Bearer
// <token>" (the scheme in any case, as RFC 9110 has it) is a token that
// is not valid.
func bearerToken(headers amqp.Table) (string, bool) {
	v, ok := headers["authorization"]
	if !ok {
		return "", false
	}
	s, _ := v.(string)
	scheme, token, _ := strings.Cut(s, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(token), true
}

// fail answers err with httpproblem.Of's status and problem body, the
// translator REST answers with: AMQP replies carry REST's status and
// problem by contract.
func (s *Server) fail(ctx context.Context, req *request, op operation, err error) reply {
	e := httpproblem.Of(ctx, s.logger, err, op.withBody)
	return problemReply(req, e.Status, e.Detail, e.Fields)
}

// problemReply is an error reply: REST's problem body, and for a 503 the
// retry-after header.
func problemReply(req *request, status int, detail string, fields map[string]string) reply {
	body, err := json.Marshal(httpproblem.New(status, detail, req.op, fields))
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"type":"about:blank","title":"Internal Server Error","status":500}`)
	}
	return reply{
		status:      status,
		contentType: "application/problem+json",
		body:        body,
		retryAfter:  status == http.StatusServiceUnavailable,
	}
}
