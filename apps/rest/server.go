package main

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
	"crudbench/resources"
)

// NewServer returns the REST app's handler: the routes of addRoutes behind
// the middleware all three apps share (serve.Stack, with timeout as every
// request's deadline) and inside it m's request histogram, with panics,
// oversized bodies, 404 and 405 answered as problem+json like every other
// error.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, m *metrics.Metrics) http.Handler {
	mux := chi.NewRouter()
	mux.Use(m.Requests)
	mux.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, http.StatusNotFound, "nothing lives at this path; the API is described at /openapi.yaml", nil)
	})
	mux.MethodNotAllowed(handleMethodNotAllowed(mux))
	addRoutes(mux, logger, store, tokens)

	return serve.Stack{
		Logger:  logger,
		Timeout: timeout,
		OnPanic: func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, r, http.StatusInternalServerError, "", nil)
		},
		OnTooLarge: func(w http.ResponseWriter, r *http.Request) {
			writeProblem(w, r, http.StatusRequestEntityTooLarge, tooLarge.detail, nil)
		},
	}.Wrap(mux)
}

// handleMethodNotAllowed answers 405 with the Allow header RFC 9110 asks
// for, which chi leaves out once the handler is replaced. HEAD is listed
// wherever GET is, since middleware.GetHead serves it there.
func handleMethodNotAllowed(routes chi.Routes) http.HandlerFunc {
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
	return func(w http.ResponseWriter, r *http.Request) {
		var allowed []string
		for _, m := range methods {
			if routes.Match(chi.NewRouteContext(), m, r.URL.Path) {
				allowed = append(allowed, m)
				if m == http.MethodGet {
					allowed = append(allowed, http.MethodHead)
				}
			}
		}
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeProblem(w, r, http.StatusMethodNotAllowed, r.Method+" is not allowed here", nil)
	}
}

// handleOpenAPI serves the API's OpenAPI document.
func handleOpenAPI() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(resources.OpenAPI)
	})
}
