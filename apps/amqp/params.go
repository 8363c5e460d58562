package main

import (
	"net/http"
	"strconv"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/jsonbody"
	"crudbench/db"
)

// param reads the header name: what REST takes in the path or the query,
// a string written as REST's is (digits for an id). Absent is "";
// another type is 400 naming it.
func param(req *request, name string) (string, error) {
	v, ok := req.headers[name]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", httpproblem.BadRequest("a parameter header must be a string", map[string]string{name: "must be a string header (" + typeName(v) + " sent)"})
	}
	return s, nil
}

// typeName names an AMQP field value's type for a message.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "void"
	case bool:
		return "boolean"
	case int8, int16, int32, int64, uint8, uint16, uint32, int, float32, float64, amqp.Decimal:
		return "a number"
	case []byte:
		return "a byte array"
	case amqp.Table:
		return "a table"
	case []any:
		return "an array"
	}
	return "another type"
}

// idParam reads the id header of a single-resource operation: a positive
// whole number written in digits, else 400 naming id.
func idParam(req *request) (int64, error) {
	s, err := param(req, "id")
	if err != nil {
		return 0, err
	}
	if s == "" {
		return 0, httpproblem.BadRequest("this operation needs the id header", map[string]string{"id": "is required"})
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 || s[0] == '+' {
		return 0, httpproblem.BadRequest("the id header must be a positive whole number", map[string]string{"id": "must be a positive whole number"})
	}
	return id, nil
}

// limitParam reads the page size from the limit header; the rule is the
// data's (db.ParsePageLimit). Absent, it is 0: the Store's default.
func limitParam(req *request) (int, error) {
	s, err := param(req, "limit")
	if err != nil {
		return 0, err
	}
	return db.ParsePageLimit("limit", s)
}

// page is one page of a list, REST's shape. NextCursor is the "after" of
// the next page, null on the last one.
type page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func newPage[T any](items []T, next string) page[T] {
	p := page[T]{Items: items}
	if p.Items == nil {
		p.Items = []T{}
	}
	if next != "" {
		p.NextCursor = &next
	}
	return p
}

// versionOf is the version an update is based on, from its body: missing
// is 428, as REST answers an update that names none.
func versionOf(body jsonbody.Optional[int32]) (int32, error) {
	if body.Set && !body.Null {
		return body.Value, nil
	}
	return 0, &httpproblem.Error{
		Status: http.StatusPreconditionRequired,
		Detail: `an update must name the version it is based on: send "version" in the body`,
		Fields: map[string]string{"version": "is required"},
	}
}
