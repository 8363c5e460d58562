package main

import (
	"net/http"

	"crudbench/apps/graphql/loaders"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/health"
	"crudbench/db"
)

// addRoutes is the app's whole HTTP surface.
func addRoutes(mux *http.ServeMux, store *db.Store, tokens *auth.Tokens, gql http.Handler) {
	mux.Handle("GET /healthz", health.Live())
	mux.Handle("GET /readyz", health.Ready(store))

	// GraphiQL for people; its assets are embedded (no CDN).
	mux.Handle("GET /{$}", graphiqlPage())
	mux.Handle("GET /graphiql/{file}", graphiqlAssets())

	// GraphQL over HTTP: POST for everything, GET for queries only; every
	// method reaches the transport, which answers what it refuses (405 with
	// Allow) in the GraphQL shape. Authentication happens per field (@auth,
	// @editor), so login needs no token; the loaders batch one request's
	// nested reads.
	api := limitBody(tokens.Bearer(loaders.Middleware(store)(withHTTPStatus(gql))))
	mux.Handle("/graphql", api)
}
