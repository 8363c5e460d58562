package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// problem is REST's RFC 9457 problem details object, the body of every
// error reply; instance is the operation's name.
type problem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Detail   string            `json:"detail,omitempty"`
	Instance string            `json:"instance,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
}

// requestError is a request this app rejects before the Store sees it: an
// unknown type, a body that is not JSON, a bad parameter, a missing
// token. Its detail and fields are safe to show.
type requestError struct {
	status int
	detail string
	fields map[string]string
}

func (e *requestError) Error() string { return e.detail }

func badRequest(detail string, fields map[string]string) error {
	return &requestError{status: http.StatusBadRequest, detail: detail, fields: fields}
}

// tooLarge answers a body over the HTTP apps' limit.
var tooLarge = &requestError{status: http.StatusRequestEntityTooLarge, detail: fmt.Sprintf("the body is larger than %d bytes", serve.MaxBodyBytes)}

// unknownOperation answers a type that names no operation.
func (s *Server) unknownOperation(op string) error {
	names := slices.Sorted(maps.Keys(s.ops))
	msg := "is not an operation: one of " + strings.Join(names, ", ")
	if op == "" {
		msg = "is required: the operation, one of " + strings.Join(names, ", ")
	}
	return badRequest("the message's type names no operation", map[string]string{"type": msg})
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
		return ctx, &requestError{status: http.StatusUnauthorized, detail: `log in first: send a login request, then the token as the header authorization: "Bearer <token>"`}
	}
	claims, err := s.tokens.Verify(token)
	switch {
	case errors.Is(err, auth.ErrExpiredToken):
		return ctx, &requestError{status: http.StatusUnauthorized, detail: "the token has expired: log in again"}
	case err != nil:
		return ctx, &requestError{status: http.StatusUnauthorized, detail: "the token is not valid: log in again"}
	case need == editor && !claims.Role.CanWrite():
		return ctx, &requestError{status: http.StatusForbidden, detail: "your role may read but not change data"}
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

// fail is the one translator from errors to replies: a requestError keeps
// its status, anything else is answered from its db.ErrorOf value, the
// status by its code. Internal details go to the log (serve.LogError),
// never to the client.
func (s *Server) fail(ctx context.Context, req *request, op operation, err error) reply {
	if re, ok := errors.AsType[*requestError](err); ok {
		return problemReply(req, re.status, re.detail, re.fields)
	}
	e := db.ErrorOf(err)
	serve.LogError(ctx, s.logger, e)
	switch e.Code {
	case db.EINVALID:
		if op.withBody {
			return problemReply(req, http.StatusUnprocessableEntity, e.Message, e.Fields)
		}
		return problemReply(req, http.StatusBadRequest, e.Message, e.Fields)
	case db.ENOTFOUND:
		return problemReply(req, http.StatusNotFound, e.Message, e.Fields)
	case db.ECONFLICT:
		return problemReply(req, http.StatusConflict, e.Message, e.Fields)
	case db.EUNAUTHORIZED:
		return problemReply(req, http.StatusUnauthorized, e.Message, e.Fields)
	case db.EUNAVAILABLE:
		return problemReply(req, http.StatusServiceUnavailable, e.Message, e.Fields)
	}
	return problemReply(req, http.StatusInternalServerError, "", nil)
}

// problemReply is an error reply: REST's problem body, and for a 503 the
// retry-after header.
func problemReply(req *request, status int, detail string, fields map[string]string) reply {
	body, err := json.Marshal(problem{
		Type:     "about:blank",
		Title:    http.StatusText(status),
		Status:   status,
		Detail:   detail,
		Instance: req.op,
		Fields:   fields,
	})
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
