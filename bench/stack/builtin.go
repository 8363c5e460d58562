package stack

import (
	"slices"

	"crudbench/bench/scenario"
)

// App is one built-in app: a named implementation of a kind, and how the
// runner builds and starts it. A tuned variant is one more row: another
// package under apps/, or the same package built or started with other
// environment.
type App struct {
	Name string
	Kind scenario.Kind
	// Toolchain is what builds and runs it: ToolchainGo (the zero value)
	// or ToolchainNode.
	Toolchain Toolchain
	// Package is the folder under apps/ holding the app: its main package
	// for Go, its package.json for Node.
	Package string
	// Main is, for a Node app, the script node starts, relative to the
	// app's folder (e.g. src/main.js, or dist/main.js for one its
	// BuildScript compiles); empty for Go.
	Main string
	// BuildScript is, for a Node app whose sources do not run as they
	// are (TypeScript), the script of its package.json that makes them
	// ready after npm ci — "build" for tsc compiling src/ into dist/ —
	// which Build runs as npm run <script> --workspace apps/<Package>,
	// once per package; empty for an app node runs as written, and for Go.
	BuildScript string
	// Tree says the app runs as a tree of processes (a primary and the
	// workers it forks): its CPU and memory are then the sum over the
	// tree, memory as Pss so that pages the workers share count once.
	Tree bool
	// BuildEnv is added to the environment of its go build (e.g.
	// GOEXPERIMENT=jsonv2), RunEnv to the environment it is started with
	// (before the variables every app gets, which it cannot override).
	BuildEnv, RunEnv []string
	// Difference says in one line how it differs from its kind's default
	// app; empty for the default itself.
	Difference string
	// Extra keeps a kind's default app out of the apps measured when -apps
	// is not given (-apps all, or its name, includes it): the grpc, trpc
	// and amqp kinds, added later, so that a default run stays the comparison
	// of the three kinds it always was, and as long.
	Extra bool
	// Shares names the row whose process serves this row too: an app that
	// serves several kinds in one process (next: REST, GraphQL and tRPC
	// in one Next.js server) is one row per kind, the first with a
	// process of its own, the others naming it. The runner starts that
	// process once and measures it for each row; empty for every other row.
	Shares string
	// Fronts names, for a front end (FrontEnds), the API row whose
	// answers its pages show: it is started with that row's URL as
	// API_URL, where its static server passes the API's paths. Empty for
	// every API app.
	Fronts string
}

// Process is the name of the row whose process serves a: a.Shares, or
// a's own name.
func (a App) Process() string {
	if a.Shares != "" {
		return a.Shares
	}
	return a.Name
}

// Toolchain names the language toolchain that builds and runs an app.
type Toolchain string

const (
	// ToolchainGo builds the app with go build into one binary.
	ToolchainGo Toolchain = ""
	// ToolchainNode installs the app's locked dependencies with npm ci and
	// starts its Main script with node.
	ToolchainNode Toolchain = "node"
)

// Builtin lists every built-in app, in report order.
var Builtin = []App{
	{Name: "rest", Kind: scenario.KindREST, Package: "rest"},
	{
		Name: "express", Kind: scenario.KindREST, Toolchain: ToolchainNode, Package: "express", Main: "src/main.js",
		Difference: "Node.js + Express 5 + node-postgres (pg) instead of Go + chi + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "express-cluster", Kind: scenario.KindREST, Toolchain: ToolchainNode, Package: "express", Main: "src/cluster.js", Tree: true,
		Difference: "express as one worker process per CPU (node:cluster) sharing the port, DB_MAX_CONNS split between them; its CPU and RSS are the sum over the primary and its workers",
	},
	{
		Name: "fastify", Kind: scenario.KindREST, Toolchain: ToolchainNode, Package: "fastify", Main: "src/main.js",
		Difference: "Node.js + Fastify 5 (Ajv-validated bodies, fast-json-stringify answers) + node-postgres (pg) instead of Go + chi + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "nest", Kind: scenario.KindREST, Toolchain: ToolchainNode, Package: "nest", Main: "dist/main.js", BuildScript: "build",
		Difference: "Node.js + NestJS 12 in TypeScript (modules, controllers, guards, one exception filter; tsc at build time) on its Express 5 platform + node-postgres (pg) instead of Go + chi + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "nest-fastify", Kind: scenario.KindREST, Toolchain: ToolchainNode, Package: "nest", Main: "dist/main.js", BuildScript: "build",
		RunEnv:     []string{"NEST_PLATFORM=fastify"},
		Difference: "nest with NEST_PLATFORM=fastify: the same modules, controllers, guards and filter on Nest's Fastify 5 platform instead of its Express one",
	},
	{Name: "graphql", Kind: scenario.KindGraphQL, Package: "graphql"},
	{
		Name: "graphql-tuned", Kind: scenario.KindGraphQL, Package: "graphql",
		RunEnv:     []string{"GOGC=400"},
		Difference: "GOGC=400: Go's garbage collector runs a quarter as often (gqlgen allocates about 10× REST's objects per request); more memory",
	},
	{
		Name: "yoga", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "yoga", Main: "src/main.js",
		Difference: "Node.js + graphql-yoga 5 + node-postgres (pg) instead of Go + gqlgen + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "apollo", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "apollo", Main: "src/main.js",
		Difference: "Node.js + Apollo Server 5 on Express 5 + DataLoader + node-postgres (pg) instead of Go + gqlgen + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "mercurius", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "mercurius", Main: "src/main.js",
		Difference: "Node.js + Mercurius 16 on Fastify 5 (its loaders, graphql-jit off as by default) + node-postgres (pg) instead of Go + gqlgen + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "mercurius-jit", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "mercurius", Main: "src/main.js",
		RunEnv:     []string{"MERCURIUS_JIT=1"},
		Difference: "mercurius with MERCURIUS_JIT=1: each query is compiled by graphql-jit on its second run and runs compiled from then on",
	},
	{
		Name: "nest-graphql", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "nest-graphql", Main: "dist/main.js", BuildScript: "build",
		Difference: "Node.js + NestJS 12 (@nestjs/graphql schema first, resolver classes) with its Apollo driver (Apollo Server 5) on Nest's Express 5 platform + DataLoader + node-postgres (pg) instead of Go + gqlgen + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "nest-mercurius", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "nest-graphql", Main: "dist/main.js", BuildScript: "build",
		RunEnv:     []string{"NEST_GRAPHQL_DRIVER=mercurius"},
		Difference: "nest-graphql with NEST_GRAPHQL_DRIVER=mercurius: Nest's Mercurius driver (Mercurius 16, graphql-jit off) on its Fastify 5 platform in place of Apollo on Express",
	},
	{Name: "grpc", Kind: scenario.KindGRPC, Package: "grpc", Extra: true},
	{
		Name: "grpc-node", Kind: scenario.KindGRPC, Toolchain: ToolchainNode, Package: "grpc-node", Main: "src/main.js",
		Difference: "Node.js + @grpc/grpc-js (proto-loader reading resources/proto at start, no generated code) + node-postgres (pg) instead of Go + grpc-go + pgx: one process, whose JavaScript runs on one thread",
	},
	{
		Name: "trpc", Kind: scenario.KindTRPC, Toolchain: ToolchainNode, Package: "trpc", Main: "dist/main.js", BuildScript: "build", Extra: true,
	},
	{
		Name: "next-rest", Kind: scenario.KindREST, Toolchain: ToolchainNode, Package: "next", Main: "server.js", BuildScript: "build",
		Difference: "Node.js + Next.js 16 route handlers (App Router, next build) + node-postgres (pg) instead of Go + chi + pgx, under node-base's HTTP server with Next as its request handler; one process, shared with next-graphql and next-trpc",
	},
	{
		Name: "next-graphql", Kind: scenario.KindGraphQL, Toolchain: ToolchainNode, Package: "next", Main: "server.js", BuildScript: "build", Shares: "next-rest",
		Difference: "Node.js + Apollo Server 5 through its Next.js integration (@as-integrations/next) in a Next.js 16 route handler + DataLoader + node-postgres (pg) instead of Go + gqlgen + pgx: next-rest's process",
	},
	{
		Name: "next-trpc", Kind: scenario.KindTRPC, Toolchain: ToolchainNode, Package: "next", Main: "server.js", BuildScript: "build", Shares: "next-rest",
		Difference: "the trpc app's router (crudbench-trpc) through tRPC's fetch adapter in a Next.js 16 route handler instead of tRPC's standalone Node adapter: next-rest's process",
	},
	{Name: "amqp", Kind: scenario.KindAMQP, Package: "amqp", Extra: true},
	{Name: "htmx", Kind: scenario.KindSite, Package: "htmx"},
	{
		Name: "htmx-tuned", Kind: scenario.KindSite, Package: "htmx",
		RunEnv:     []string{"HTMX_RENDERER=templ"},
		Difference: "HTMX_RENDERER=templ: the person detail and vacancy list are rendered by compiled a-h/templ components instead of html/template (same handlers, data, escaping and statements)",
	},
}

// FindBuiltin returns the built-in app called name.
func FindBuiltin(name string) (App, bool) {
	i := slices.IndexFunc(Builtin, func(a App) bool { return a.Name == name })
	if i < 0 {
		return App{}, false
	}
	return Builtin[i], true
}

// BuiltinNames lists the names of every built-in app, in report order.
func BuiltinNames() []string {
	names := make([]string, len(Builtin))
	for i, a := range Builtin {
		names[i] = a.Name
	}
	return names
}

// BuiltinNamesOf lists the names of the built-in apps toolchain builds and
// runs, in report order: the groups -apps go and -apps node.
func BuiltinNamesOf(toolchain Toolchain) []string {
	var names []string
	for _, a := range Builtin {
		if a.Toolchain == toolchain {
			names = append(names, a.Name)
		}
	}
	return names
}

// DefaultNames lists the default app of every kind (the rows without a
// difference), but for the extra kinds': the apps measured when -apps is
// not given.
func DefaultNames() []string {
	var names []string
	for _, a := range Builtin {
		if a.Difference == "" && !a.Extra {
			names = append(names, a.Name)
		}
	}
	return names
}
