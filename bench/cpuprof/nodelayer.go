package cpuprof

import (
	"strings"

	"github.com/google/pprof/profile"

	"crudbench/bench/results"
)

// nodeSkipped are the npm packages whose frames do not decide a sample's
// layer, as Go's runtime and general-purpose standard library do not
// (skipped): helpers every layer calls (promises, property lookups,
// buffers, caches). Their time is charged to the first frame above them.
var nodeSkipped = map[string]bool{
	"tslib": true, "safe-buffer": true, "safer-buffer": true, "inherits": true,
	"es-errors": true, "es-define-property": true, "es-object-atoms": true,
	"get-intrinsic": true, "get-proto": true, "gopd": true, "has-symbols": true,
	"hasown": true, "function-bind": true, "call-bind-apply-helpers": true,
	"call-bound": true, "dunder-proto": true, "math-intrinsics": true,
	"side-channel": true, "side-channel-list": true, "side-channel-map": true,
	"side-channel-weakmap": true, "object-inspect": true, "setprototypeof": true,
	"is-promise": true, "once": true, "wrappy": true, "ms": true, "debug": true,
	"depd": true, "lru-cache": true, "quick-lru": true, "tiny-lru": true,
	"@whatwg-node/promise-helpers": true, "@whatwg-node/disposablestack": true,
}

// nodeLayers map npm packages to layers, as layerRules map Go packages:
// Express 5 and Fastify 5 and the packages they are made of, NestJS (its
// @nestjs packages, the rxjs its interceptors run through, the
// reflect-metadata its decorators read, and what they are made of), the fetch API
// that graphql-yoga serves HTTP through (@whatwg-node), Apollo's Express
// integration and prom-client (as Go's Prometheus client) are http;
// graphql-js and what yoga, Apollo Server and Mercurius parse, validate,
// compile (graphql-jit) and execute documents with (NestJS's GraphQL
// module and its Apollo and Mercurius drivers too, though the rest of
// @nestjs is http), and Fastify's JSON
// schemas (Ajv) and serializer (fast-json-stringify), and tRPC's server
// (@trpc/server: its procedure calls, input and envelope) with the zod
// schemas its inputs are checked by, are encoding, as gqlgen, gqlparser
// and encoding/json are for Go; node-postgres and its
// parsers are the driver; the shared package @crudbench/node-base is the
// app's. Every other package is other (logging with pino, tokens,
// bcryptjs, dataloader and Mercurius's loaders' single-user-cache — as Go's
// dataloadgen).
var nodeLayers = map[string]string{}

func init() {
	for layer, pkgs := range map[string][]string{
		results.LayerHTTP: {
			"express", "router", "body-parser", "finalhandler", "send", "serve-static",
			"on-finished", "ee-first", "accepts", "negotiator", "mime-types", "mime-db",
			"media-typer", "type-is", "content-type", "content-disposition", "cookie",
			"cookie-signature", "encodeurl", "escape-html", "etag", "fresh",
			"range-parser", "parseurl", "path-to-regexp", "proxy-addr", "forwarded",
			"ipaddr.js", "qs", "raw-body", "bytes", "iconv-lite", "unpipe", "statuses",
			"http-errors", "toidentifier", "vary", "merge-descriptors",
			"prom-client", "bintrees", "tdigest",
			"@whatwg-node/server", "@whatwg-node/fetch", "@whatwg-node/node-fetch",
			"@whatwg-node/events", "urlpattern-polyfill", "@fastify/busboy",
			"@as-integrations/*", "whatwg-mimetype",
			"fastify", "find-my-way", "avvio", "fastq", "fastify-plugin", "toad-cache",
			"light-my-request", "process-warning", "abstract-logging", "fast-querystring",
			"fast-decode-uri-component", "safe-regex2", "ret", "rfdc", "@fastify/error",
			"@fastify/proxy-addr", "@fastify/forwarded", "@fastify/accept-negotiator",
			"@nestjs/*", "rxjs", "reflect-metadata", "iterare", "fast-safe-stringify", "uid",
			"@lukeed/csprng", "@fastify/middie", "@fastify/formbody", "@fastify/cors",
		},
		results.LayerEncoding: {
			"graphql", "graphql-yoga", "@graphql-yoga/*", "@graphql-tools/*",
			"@envelop/*", "@repeaterjs/repeater", "cross-inspect",
			"@apollo/*", "mercurius", "graphql-jit", "@nestjs/graphql", "@nestjs/apollo", "@nestjs/mercurius",
			"fast-json-stringify", "@fastify/fast-json-stringify-compiler", "@fastify/ajv-compiler",
			"@fastify/merge-json-schemas", "@fastify/deepmerge", "ajv", "ajv-formats", "fast-uri",
			"json-schema-ref-resolver", "fast-deep-equal", "secure-json-parse",
			"@trpc/*", "zod",
		},
		results.LayerDriver: {
			"pg", "pg-pool", "pg-protocol", "pg-types", "pg-int8", "pg-connection-string",
			"pg-cloudflare", "pgpass", "postgres-array", "postgres-bytea",
			"postgres-date", "postgres-interval", "split2", "xtend",
		},
		results.LayerApp: {"@crudbench/node-base"},
	} {
		for _, p := range pkgs {
			nodeLayers[p] = layer
		}
	}
}

// jsonWrappers are the functions, by script (as shortScript writes it)
// and name, whose own time is JSON.stringify's or JSON.parse's: V8's
// profile has no frame for those builtins, so their time is their
// caller's, and the express app calls them in one function each way. They
// are encoding, as encoding/json is for the Go apps. (graphql-yoga's
// result stringifier is encoding by its package.) The same holds for the
// code fast-json-stringify compiles with new Function: V8 gives it no
// script, so its time is the caller's, Fastify's serialize.
var jsonWrappers = map[string]bool{
	"express/src/http/respond.js sendJSON":    true,
	"express/src/http/body.js decode":         true,
	"fastify/src/plugins/json.js parseObject": true,
	"fastify/lib/reply.js serialize":          true,
}

// nodeLayerOf returns the layer of a sample of a profile FromV8 made,
// by its functions' scripts: runtime for V8's garbage collector and its
// native work outside JavaScript ("(program)"); else the layer of the
// first function from the leaf that is not skipped — Node's http modules
// are http, its other modules and V8's builtins are skipped, a package
// under node_modules is what nodeLayers says (other when unlisted,
// skipped in nodeSkipped), any other file is the app's, and the JSON
// wrappers (jsonWrappers) are encoding — and runtime when
// every function is skipped (timers, the event loop's own callbacks).
func nodeLayerOf(s *profile.Sample) string {
	for _, loc := range s.Location {
		for _, l := range loc.Line {
			if l.Function == nil {
				continue
			}
			if layer := nodeFrameLayer(l.Function.SystemName, l.Function.Filename); layer != "" {
				return layer
			}
		}
	}
	return results.LayerRuntime
}

// nodeFrameLayer is the layer function fn of script decides, "" when it
// is skipped.
func nodeFrameLayer(fn, script string) string {
	switch {
	case script == "" && (fn == v8GC || fn == v8Program):
		return results.LayerRuntime
	case script == "":
		return "" // a builtin: Array.prototype.map, performance.now, …
	case strings.HasPrefix(script, "node:"):
		m := strings.TrimPrefix(script, "node:")
		if strings.HasPrefix(m, "_http_") || m == "http" || strings.HasPrefix(m, "internal/http") || strings.HasPrefix(m, "internal/deps/undici/") {
			return results.LayerHTTP
		}
		return ""
	case !strings.HasPrefix(script, "file://"):
		return results.LayerOther // code a script evaluated, not a file's
	case jsonWrappers[shortScript(script)+" "+fn]:
		return results.LayerEncoding
	case !strings.Contains(script, "/node_modules/"):
		return results.LayerApp
	}
	pkg := npmPackage(shortScript(script))
	switch {
	case nodeSkipped[pkg]:
		return ""
	}
	if layer, ok := nodeLayers[pkg]; ok {
		return layer
	}
	if scope, _, ok := strings.Cut(pkg, "/"); ok {
		if layer, ok := nodeLayers[scope+"/*"]; ok {
			return layer
		}
	}
	return results.LayerOther
}

// npmPackage returns the package of a path under node_modules: its first
// element, or two for a scoped package (@graphql-tools/executor).
func npmPackage(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if strings.HasPrefix(p, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}
