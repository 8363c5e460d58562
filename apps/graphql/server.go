package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/go-chi/chi/v5"
	"github.com/vektah/gqlparser/v2/ast"

	"crudbench/apps/graphql/graph"
	"crudbench/apps/graphql/graph/generated"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// Options tune the GraphQL app beyond the configuration all apps share.
type Options struct {
	// Introspection lets clients read the schema (GraphiQL needs it).
	// GRAPHQL_INTROSPECTION=false or -graphql-introspection=false turns it
	// off (introspectionSetting).
	Introspection bool
}

// NewServer returns the whole app as one handler: the GraphQL endpoint,
// GraphiQL and the health probes, behind the middleware the Go HTTP apps share
// (serve.Stack, with timeout as every request's deadline) and inside it m's
// request histogram; a panic outside the resolvers and an oversized body are
// answered in the GraphQL response shape.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, opts Options, m *metrics.Metrics) http.Handler {
	mux := chi.NewRouter()
	mux.Use(m.Requests)
	addRoutes(mux, logger, store, tokens, opts)
	return serve.Stack{
		Logger:     logger,
		Timeout:    timeout,
		OnPanic:    writePanic,
		OnTooLarge: writeTooLarge,
	}.Wrap(mux)
}

// handleGraphQL is the GraphQL endpoint, gqlgen's server configured with
// the transport of the GraphQL-over-HTTP spec, the error translator and the
// query limits. It needs the middleware addRoutes puts before it.
func handleGraphQL(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, opts Options) http.Handler {
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
	cache := lru.New[*ast.QueryDocument](1000)
	srv.SetQueryCache(cache)
	srv.SetParserTokenLimit(maxQueryTokens)
	srv.SetValidationRulesFn(validationRules)
	srv.SetErrorPresenter(presentError(logger))
	srv.SetRecoverFunc(recoverResolver(logger))
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(noIntrospection{})
	}
	srv.Use(querySizeLimit{max: maxQueryBytes})
	// The document limits count a document gqlgen has not cached before
	// it is validated; depth and cost are measured once it is.
	srv.Use(documentLimits{cache: cache})
	srv.Use(&operationLimits{})
	return srv
}

// endpointPath is where GraphQL is served.
const endpointPath = "/graphql"

// methodNotAllowed answers a method a route does not take, after
// serve.MethodNotAllowed has set Allow from the routes: on the endpoint as a
// GraphQL response with a code, like every other refusal there; elsewhere
// in plain text.
func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != endpointPath {
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	writeError(w, r, http.StatusMethodNotAllowed, codeMethodNotAllowed,
		fmt.Sprintf("%s is not allowed on %s: send queries with GET or POST, mutations with POST", r.Method, endpointPath))
}
