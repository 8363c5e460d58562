package main

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"

	"crudbench/apps/graphql/graph"
	"crudbench/apps/graphql/graph/generated"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// Options tune the GraphQL app beyond the configuration all apps share.
type Options struct {
	// Introspection lets clients read the schema (GraphiQL needs it).
	// GRAPHQL_INTROSPECTION=false turns it off.
	Introspection bool
}

// NewServer returns the whole app as one handler: the GraphQL endpoint,
// GraphiQL and the health probes, behind the middleware all three apps share
// (serve.Stack, with timeout as every request's deadline); a panic outside
// the resolvers and an oversized body are answered in the GraphQL response
// shape.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, opts Options) http.Handler {
	mux := http.NewServeMux()
	addRoutes(mux, store, tokens, newGraphQL(logger, store, tokens, opts))
	return serve.Stack{
		Logger:     logger,
		Timeout:    timeout,
		OnPanic:    writePanic,
		OnTooLarge: writeTooLarge,
	}.Wrap(mux)
}

// newGraphQL configures gqlgen's server: the transports of the
// GraphQL-over-HTTP spec, the error translator, and the query limits.
func newGraphQL(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, opts Options) http.Handler {
	schema := generated.NewExecutableSchema(generated.Config{
		Resolvers:  &graph.Resolver{Store: store, Tokens: tokens},
		Directives: generated.DirectiveRoot{Auth: requireSession, Editor: requireEditor},
		Complexity: complexity(),
	})
	srv := handler.New(schema)
	// GET and POST, refusals in the GraphQL shape (see transport.go).
	srv.AddTransport(httpTransport{})
	// Parsed and validated documents are kept by query text: the bench
	// sends the same few queries again and again.
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(maxQueryTokens)
	srv.SetErrorPresenter(presentError(logger))
	srv.SetRecoverFunc(recoverResolver(logger))
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(noIntrospection{})
	}
	srv.Use(querySizeLimit{max: maxQueryBytes})
	srv.Use(depthLimit{max: maxDepth})
	srv.Use(extension.FixedComplexityLimit(maxComplexity))
	srv.Use(unavailableResponses{})
	return srv
}
