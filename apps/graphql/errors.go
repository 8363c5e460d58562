package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// The extensions.code values this app answers with, beside gqlgen's own
// GRAPHQL_PARSE_FAILED and GRAPHQL_VALIDATION_FAILED.
const (
	codeBadUserInput          = "BAD_USER_INPUT"            // db.EINVALID and unreadable arguments; extensions.fields names the fields
	codeNotFound              = "NOT_FOUND"                 // db.ENOTFOUND
	codeConflict              = "CONFLICT"                  // db.ECONFLICT: stale version or duplicate
	codeUnauthenticated       = "UNAUTHENTICATED"           // no, expired or bad token; wrong credentials (db.EUNAUTHORIZED)
	codeForbidden             = "FORBIDDEN"                 // signed in, but the role may not do this
	codeUnavailable           = "UNAVAILABLE"               // db.EUNAVAILABLE: the database is away (HTTP 503)
	codeInternal              = "INTERNAL"                  // anything else; details only in the log
	codeBadRequest            = "BAD_REQUEST"               // the HTTP request is not a GraphQL request (HTTP 400)
	codeRequestTooLarge       = "REQUEST_TOO_LARGE"         // body over serve.MaxBodyBytes (HTTP 413)
	codeQueryTooLarge         = "QUERY_TOO_LARGE"           // query text over maxQueryBytes
	codeDepthLimit            = "DEPTH_LIMIT_EXCEEDED"      // selections nested deeper than maxDepth
	codeComplexityLimit       = "COMPLEXITY_LIMIT_EXCEEDED" // estimated cost over maxComplexity
	codeOperationLimit        = "OPERATION_LIMIT_EXCEEDED"  // more than maxOperations operations in the document
	codeFragmentLimit         = "FRAGMENT_LIMIT_EXCEEDED"   // more than maxFragments fragment definitions
	codeSpreadLimit           = "SPREAD_LIMIT_EXCEEDED"     // more than maxSpreads fragment spreads
	codeAliasLimit            = "ALIAS_LIMIT_EXCEEDED"      // more than maxAliases aliases
	codeDirectiveLimit        = "DIRECTIVE_LIMIT_EXCEEDED"  // more than maxDirectives directives at one place
	codeSelectionLimit        = "SELECTION_LIMIT_EXCEEDED"  // more than maxSelections selections after expanding fragments
	codeRepeatLimit           = "REPEAT_LIMIT_EXCEEDED"     // one response name selected more than maxRepeats times into one object
	codeIntrospectionDisabled = "INTROSPECTION_DISABLED"    // __schema or __type with GRAPHQL_INTROSPECTION=false
	codeMethodNotAllowed      = "METHOD_NOT_ALLOWED"        // a method /graphql does not take, or a mutation over GET (HTTP 405)
	codeUnsupportedMediaType  = "UNSUPPORTED_MEDIA_TYPE"    // a POST body not sent as application/json (HTTP 415)
)

// The refusals of the query limits (and of introspection, when it is off) are
// request errors, like a parse error: with application/graphql-response+json
// they are answered with 400, as the GraphQL-over-HTTP spec asks.
func init() {
	for _, code := range []string{codeQueryTooLarge, codeDepthLimit, codeComplexityLimit, codeIntrospectionDisabled,
		codeOperationLimit, codeFragmentLimit, codeSpreadLimit, codeAliasLimit, codeDirectiveLimit, codeSelectionLimit, codeRepeatLimit} {
		errcode.RegisterErrorType(code, errcode.KindProtocol)
	}
}

// gqlError returns a new error with an extensions.code. It is made afresh
// every time because gqlgen fills in the path of the error it is given.
func gqlError(code, message string) *gqlerror.Error {
	return &gqlerror.Error{Message: message, Extensions: map[string]any{"code": code}}
}

// dbCodes translates the data layer's codes, every one that db.ErrorOf gives.
var dbCodes = map[string]string{
	db.EINVALID:      codeBadUserInput,
	db.ENOTFOUND:     codeNotFound,
	db.ECONFLICT:     codeConflict,
	db.EUNAUTHORIZED: codeUnauthenticated,
	db.EUNAVAILABLE:  codeUnavailable,
	db.EINTERNAL:     codeInternal,
}

// presentError is the one translator from errors to GraphQL errors. Errors
// that already carry a code (gqlgen's, the auth directives', the limits')
// pass unchanged, and an argument gqlgen could not read is BAD_USER_INPUT;
// everything else is answered from its db.ErrorOf value by presentDBError:
// the data layer's errors with their code and client-safe message, any other
// error as INTERNAL with the generic message, its details in the log only.
func presentError(logger *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gqlErr := graphql.DefaultErrorPresenter(ctx, err)
		if _, ok := errors.AsType[*db.Error](err); !ok {
			if _, ok := gqlErr.Extensions["code"]; ok {
				return gqlErr
			}
			if name := inputName(ctx, gqlErr.Path); name != "" {
				// gqlgen could not read an argument (an Int out of range).
				gqlErr.Extensions = map[string]any{"code": codeBadUserInput, "fields": map[string]string{name: gqlErr.Message}}
				return gqlErr
			}
		}
		return presentDBError(ctx, logger, gqlErr, db.ErrorOf(err))
	}
}

// presentDBError answers e, read once: its code as extensions.code, its
// message, and for bad input the fields at fault as extensions.fields.
func presentDBError(ctx context.Context, logger *slog.Logger, gqlErr *gqlerror.Error, e *db.Error) *gqlerror.Error {
	serve.LogError(ctx, logger, e, slog.String("field", gqlErr.Path.String()))
	code := dbCodes[e.Code]
	gqlErr.Message = e.Message
	gqlErr.Extensions = map[string]any{"code": code}
	if code != codeBadUserInput {
		return gqlErr
	}
	fields := e.Fields
	if len(fields) == 0 {
		// A custom scalar (ID, Date) refused an argument or input field:
		// gqlgen's path then goes on past the field being resolved, to the
		// argument and input field names.
		if name := inputName(ctx, gqlErr.Path); name != "" {
			fields = map[string]string{name: e.Message}
		}
	}
	if len(fields) > 0 {
		gqlErr.Extensions["fields"] = fields
	}
	return gqlErr
}

// inputName returns the name of the input (argument or input object field)
// that path points at beyond the field being resolved, or "".
func inputName(ctx context.Context, path []ast.PathElement) string {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || len(path) <= len(fc.Path()) {
		return ""
	}
	for i := len(path) - 1; i >= 0; i-- {
		if name, ok := path[i].(ast.PathName); ok {
			return string(name)
		}
	}
	return ""
}

// recoverResolver logs a panic in a resolver with its stack and answers the
// field with INTERNAL; the rest of the response goes on.
func recoverResolver(logger *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, v any) error {
		logger.LogAttrs(ctx, slog.LevelError, "panic",
			slog.String("path", graphql.GetPath(ctx).String()),
			slog.String("panic", fmt.Sprint(v)),
			slog.String("stack", string(debug.Stack())))
		return gqlError(codeInternal, "internal error")
	}
}

// writePanic is serve.Recover's answer to a panic outside the resolvers.
func writePanic(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, http.StatusInternalServerError, codeInternal, "internal error")
}

// tooLargeMessage names the limit of a request body.
var tooLargeMessage = fmt.Sprintf("the request body is too large: the limit is %d bytes", serve.MaxBodyBytes)

// writeTooLarge answers a body over serve.MaxBodyBytes.
func writeTooLarge(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, http.StatusRequestEntityTooLarge, codeRequestTooLarge, tooLargeMessage)
}
