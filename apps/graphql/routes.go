package main

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"crudbench/apps/graphql/loaders"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/health"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// addRoutes is the app's whole HTTP surface. HEAD is served wherever GET
// is, as RFC 9110 asks: the GET handler runs and net/http drops the body.
func addRoutes(r chi.Router, logger *slog.Logger, store *db.Store, tokens *auth.Tokens, opts Options) {
	r.Use(middleware.GetHead)
	r.Method(http.MethodGet, "/healthz", health.Live())
	r.Method(http.MethodGet, "/readyz", health.Ready(store))

	// GraphiQL for people; its assets are embedded (no CDN).
	r.Method(http.MethodGet, "/", handleGraphiQL())
	r.Method(http.MethodGet, "/graphiql/{file}", handleGraphiQLAsset())

	// GraphQL over HTTP: POST for everything, GET for queries only, OPTIONS
	// to ask which. Any other method is answered 405 in the GraphQL shape
	// (methodNotAllowed), with Allow from these routes. Authentication
	// happens per field (@auth, @editor), so login needs no token; the
	// loaders batch one request's nested reads.
	endpoint := chi.Chain(tokens.Bearer, loaders.Middleware(store)).
		Handler(handleGraphQL(logger, store, tokens, opts))
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodOptions} {
		r.Method(m, endpointPath, endpoint)
	}
	r.MethodNotAllowed(serve.MethodNotAllowed(http.NotFound, methodNotAllowed))
}
