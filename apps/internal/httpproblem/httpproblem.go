// Package httpproblem is the error vocabulary's translation to an HTTP status
// and an RFC 9457 problem body. It is the REST app's translator, and the
// AMQP app's too by design, not by copy: the AMQP contract has every
// reply carry the status and problem body REST answers the same request
// with, so the two transports share this one translation.
package httpproblem

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// Details is an RFC 9457 problem details object, the body of every error
// answer. Fields carries per-field messages keyed by the camelCase field
// (or parameter) name, as the store reports them.
type Details struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Detail   string            `json:"detail,omitempty"`
	Instance string            `json:"instance,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
}

// New returns the problem body for status; instance names what was asked
// for (REST's path, AMQP's operation).
func New(status int, detail, instance string, fields map[string]string) Details {
	return Details{
		Type:     "about:blank",
		Title:    http.StatusText(status),
		Status:   status,
		Detail:   detail,
		Instance: instance,
		Fields:   fields,
	}
}

// Error is a request an app rejects before the store sees it: malformed
// JSON, a wrong media type, a bad parameter, a missing token. Its detail
// and fields are safe to show.
type Error struct {
	Status int
	Detail string
	Fields map[string]string
}

func (e *Error) Error() string { return e.Detail }

// BadRequest is a 400 Error.
func BadRequest(detail string, fields map[string]string) error {
	return &Error{Status: http.StatusBadRequest, Detail: detail, Fields: fields}
}

// TooLarge answers a body over serve.MaxBodyBytes.
var TooLarge = &Error{Status: http.StatusRequestEntityTooLarge, Detail: fmt.Sprintf("the body is larger than %d bytes", serve.MaxBodyBytes)}

// Of is the one translation from errors to answers: an Error is answered
// as it is, anything else from its db.ErrorOf value, the status by its
// code. Internal details go to the log (serve.LogError), never to the
// client.
//
// EINVALID is 400 on requests without a body (withBody false: a bad
// parameter or id) and 422 on requests with one: the JSON was
// well-formed, but a value breaks a rule.
func Of(ctx context.Context, logger *slog.Logger, err error, withBody bool) *Error {
	if re, ok := errors.AsType[*Error](err); ok {
		return re
	}
	e := db.ErrorOf(err)
	serve.LogError(ctx, logger, e)
	status := http.StatusInternalServerError
	switch e.Code {
	case db.EINVALID:
		status = http.StatusBadRequest
		if withBody {
			status = http.StatusUnprocessableEntity
		}
	case db.ENOTFOUND:
		status = http.StatusNotFound
	case db.ECONFLICT:
		status = http.StatusConflict
	case db.EUNAUTHORIZED:
		status = http.StatusUnauthorized
	case db.EUNAVAILABLE:
		status = http.StatusServiceUnavailable
	default:
		return &Error{Status: status}
	}
	return &Error{Status: status, Detail: e.Message, Fields: e.Fields}
}
