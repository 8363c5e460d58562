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

// Error is the one error type the Store returns, and the one value a
// transport's translator reads: Code picks the answer, Message and Fields are
// safe to show to a client, Err (the cause) is for logs only. Translators get
// it with ErrorOf, which also turns any other error into an EINTERNAL *Error,
// so they never need a second look at err.
type Error struct {
	Code    string
	Message string
	// Fields maps an input field (camelCase, as the APIs spell it) to what
	// is wrong with it.
	Fields map[string]string
	// Err is the cause: the driver's error behind a translated one, the
	// foreign error behind ErrorOf's EINTERNAL. Read it here; Unwrap only
	// serves errors.Is and errors.As.
	Err error
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

// msgInternal is the only message a client sees of an internal error.
const msgInternal = "internal error"

// ErrorOf returns the *Error a translator answers err with, nil for nil: the
// *Error in err's chain, or an EINTERNAL one whose cause is err. Its Code is
// always one of the vocabulary above and the Message of an EINTERNAL is
// always the generic msgInternal, whatever the maker wrote, so that
// translators need no default of their own and no detail reaches a client.
func ErrorOf(err error) *Error {
	if err == nil {
		return nil
	}
	e, ok := errors.AsType[*Error](err)
	if !ok {
		return &Error{Code: EINTERNAL, Message: msgInternal, Err: err}
	}
	switch e.Code {
	case EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EUNAVAILABLE:
		return e
	case EINTERNAL:
		if e.Message == msgInternal {
			return e
		}
	}
	// An internal error with words of its own, or a code nobody translates:
	// the words may hold internals, so they move to the cause, for the log.
	cause := errors.New(e.Error())
	if e.Err != nil {
		cause = fmt.Errorf("%s: %w", e.Error(), e.Err)
	}
	return &Error{Code: EINTERNAL, Message: msgInternal, Err: cause}
}

// ErrorCode returns the code of err ("" for nil) for code that branches on
// the code alone; translators read the whole value with ErrorOf.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	return ErrorOf(err).Code
}

// invalid builds an EINVALID error from collected field messages.
func invalid(fields map[string]string) *Error {
	return &Error{Code: EINVALID, Message: "invalid input", Fields: fields}
}
