package main

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"crudbench/apps/internal/serve"
)

// A GraphQL response that failed as a whole because the database is away
// is answered 503 with Retry-After, as the other apps answer it. Only the
// unavailableResponses extension sees every error of a response, and the
// transport writes its status before it knows: the extension marks the
// request's httpStatus, and the statusWriter of withHTTPStatus rewrites the
// 200 the transport then writes.

// statusKey finds the request's *httpStatus in its context.
type statusKey struct{}

// httpStatus carries what execution learnt about the HTTP status to the
// response writer, which gqlgen's transports do not expose.
type httpStatus struct {
	unavailable bool // every field failed because the database is away
}

// unavailableResponses is a gqlgen extension: when every field of a response
// failed with UNAVAILABLE (the database is down), the data is null and the
// HTTP status 503, as for the other apps, so that clients and load balancers
// see the outage without reading the body. A response with any field answered,
// or with any other error, keeps its status: partial data is still data.
type unavailableResponses struct{}

// ExtensionName implements graphql.HandlerExtension.
func (unavailableResponses) ExtensionName() string { return "UnavailableResponses" }

// Validate implements graphql.HandlerExtension.
func (unavailableResponses) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse implements graphql.ResponseInterceptor.
func (unavailableResponses) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || len(resp.Errors) == 0 {
		return resp
	}
	for _, e := range resp.Errors {
		if e.Extensions["code"] != codeUnavailable {
			return resp
		}
	}
	if len(resp.Data) > 0 && !allNull(resp.Data) {
		return resp
	}
	resp.Data = nil
	if s, ok := ctx.Value(statusKey{}).(*httpStatus); ok {
		s.unavailable = true
	}
	return resp
}

// allNull reports whether data is null or an object whose every field is null.
func allNull(data json.RawMessage) bool {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return string(data) == "null"
	}
	for _, v := range fields {
		if string(v) != "null" {
			return false
		}
	}
	return true
}

// withHTTPStatus answers 503 with Retry-After, like the other apps, for a
// response that failed as a whole because the database is down or did not
// answer in time: the transport writes its status before it knows, and only
// the unavailableResponses extension sees every error.
func withHTTPStatus(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := &httpStatus{}
		sw := &statusWriter{ResponseWriter: w, status: s}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), statusKey{}, s)))
	})
}

type statusWriter struct {
	http.ResponseWriter
	status      *httpStatus
	wroteHeader bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		if code == http.StatusOK && w.status.unavailable {
			w.Header().Set("Retry-After", serve.RetryAfter)
			code = http.StatusServiceUnavailable
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
