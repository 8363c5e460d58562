package db

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Error codes: the whole error vocabulary of crudbench. Each transport has
// exactly one translator from these codes to its own idiom (HTTP status and
// problem+json, GraphQL extensions.code, the site's re-rendered form).
const (
	EINVALID      = "invalid"      // bad input; Fields names the offending fields
	ENOTFOUND     = "not_found"    // no such row
	ECONFLICT     = "conflict"     // stale version or a duplicate unique value
	EUNAUTHORIZED = "unauthorized" // bad credentials
	EUNAVAILABLE  = "unavailable"  // the database cannot be reached
	EINTERNAL     = "internal"     // anything else; details are logged, never shown
)

// Error is the one error type the Store returns. Message and Fields are safe
// to show to a client; Err (the cause) is for logs only.
type Error struct {
	Code    string
	Message string
	// Fields maps an input field (camelCase, as the APIs spell it) to what
	// is wrong with it.
	Fields map[string]string
	Err    error
}

// Error implements error with the code, the message and the fields in a
// stable order (the cause is left out: it may hold internals).
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
		fmt.Fprintf(&b, "; %s %s", k, e.Fields[k])
	}
	return b.String()
}

// Unwrap gives errors.Is/As access to the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err: the Code of an *Error in its chain,
// EINTERNAL for any other non-nil error, "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the client-safe message of err; internal errors get a
// generic text so that no detail leaks.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok && e.Code != EINTERNAL {
		return e.Message
	}
	return "internal error"
}

// ErrorFields returns the per-field messages of err, or nil.
func ErrorFields(err error) map[string]string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Fields
	}
	return nil
}

// invalid builds an EINVALID error from collected field messages.
func invalid(fields map[string]string) *Error {
	return &Error{Code: EINVALID, Message: "invalid input", Fields: fields}
}
