package main

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
	"crudbench/resources"
)

// NewServer returns the REST app's handler: the routes of addRoutes behind
// the middleware the Go HTTP apps share (serve.Stack, with timeout as every
// request's deadline) and inside it m's request histogram, with panics,
// oversized bodies, 404 and 405 answered as problem+json like every other
// error.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, m *metrics.Metrics) http.Handler {
	mux := chi.NewRouter()
	mux.Use(m.Requests)
	mux.NotFound(notFound)
	mux.MethodNotAllowed(serve.MethodNotAllowed(notFound, func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, http.StatusMethodNotAllowed, r.Method+" is not allowed here", nil)
	}))
	addRoutes(mux, logger, store, tokens)

	return serve.Stack{
		Logger:  logger,
		Timeout: timeout,
		OnPanic: func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, r, http.StatusInternalServerError, "", nil)
		},
		OnTooLarge: func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, r, http.StatusRequestEntityTooLarge, httpproblem.TooLarge.Detail, nil)
		},
	}.Wrap(mux)
}

// notFound answers a path no route serves.
func notFound(w http.ResponseWriter, r *http.Request) {
	writeProblem(w, r, http.StatusNotFound, "nothing lives at this path; the API is described at /openapi.yaml", nil)
}

// handleOpenAPI serves the API's OpenAPI document.
func handleOpenAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(resources.OpenAPI)
	})
}
