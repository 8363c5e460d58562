package facts

import (
	"runtime/debug"
	"strings"

	"crudbench/bench/results"
)

// Runtimes, as StackFacts.Runtime names them.
const (
	runtimeGo   = "Go"
	runtimeNode = "Node.js"
)

// goFrameworks and nodeFrameworks are the libraries the apps are compared
// on, Go module path or npm name to the name the report prints, in the
// order it prints them: the application framework (NestJS), the HTTP,
// gRPC or GraphQL server, the tRPC server and its input schemas (zod),
// the GraphQL library, templates, the data loader, the PostgreSQL driver. The rest of an app's
// dependencies are only counted.
var (
	goFrameworks = [][2]string{
		{"github.com/go-chi/chi/v5", "chi"},
		{"google.golang.org/grpc", "grpc-go"},
		{"github.com/99designs/gqlgen", "gqlgen"},
		{"github.com/vektah/gqlparser/v2", "gqlparser"},
		{"github.com/a-h/templ", "templ"},
		{"github.com/vikstrous/dataloadgen", "dataloadgen"},
		{"github.com/jackc/pgx/v5", "pgx"},
	}
	nodeFrameworks = [][2]string{
		{"@nestjs/core", "@nestjs/core"},
		{"@nestjs/graphql", "@nestjs/graphql"},
		{"express", "express"},
		{"fastify", "fastify"},
		{"@apollo/server", "@apollo/server"},
		{"mercurius", "mercurius"},
		{"graphql-yoga", "graphql-yoga"},
		{"@trpc/server", "@trpc/server"},
		{"zod", "zod"},
		{"graphql", "graphql"},
		{"dataloader", "dataloader"},
		{"pg", "pg"},
	}
)

// frameworksOf returns the frameworks of list that version finds (a
// module linked, a package installed), versions without a leading "v".
func frameworksOf(list [][2]string, version func(string) (string, bool)) []results.Framework {
	var fs []results.Framework
	for _, f := range list {
		if v, ok := version(f[0]); ok {
			fs = append(fs, results.Framework{Name: f[1], Version: strings.TrimPrefix(v, "v")})
		}
	}
	return fs
}

// goRuntime sets the runtime and frameworks a Go binary's build info
// records: the Go that built it (its runtime is linked in) and the
// versions of the modules it links.
func goRuntime(f *results.StackFacts, info *debug.BuildInfo) {
	f.Runtime = runtimeGo
	f.RuntimeVersion = strings.TrimPrefix(info.GoVersion, "go")
	f.Frameworks = frameworksOf(goFrameworks, func(path string) (string, bool) {
		for _, d := range info.Deps {
			if d.Path == path {
				if d.Replace != nil {
					d = d.Replace
				}
				return d.Version, true
			}
		}
		return "", false
	})
}
