package cpuprof

import (
	"strings"

	"crudbench/bench/results"
)

// backgroundWorkers are the runtime's own goroutines. A sample with one of
// them on its stack is runtime work (garbage collection, sweeping,
// scavenging, finalizers, the system monitor) even where it runs code of
// other packages, such as a finalizer closing a file.
var backgroundWorkers = map[string]bool{
	"runtime.gcBgMarkWorker": true,
	"runtime.bgsweep":        true,
	"runtime.bgscavenge":     true,
	"runtime.sysmon":         true,
	"runtime.forcegchelper":  true,
	"runtime.runfinq":        true,
	"runtime.runCleanups":    true,
}

// skipped are the packages (and, with a trailing slash, package trees)
// whose frames do not decide a sample's layer: the runtime and the
// general-purpose standard library that every layer calls. Their time is
// charged to the first frame above them that is not skipped, so the bytes
// that encoding/json copies count as encoding and the syscall that pgconn
// makes counts as the driver. Allocation and the garbage collector's
// assists (runtime.mallocgc) therefore count toward the layer that
// allocated, whose allocation rate caused them; only the background
// workers count as runtime.
var skipped = []string{
	"runtime", "runtime/", "internal/", "sync", "sync/", "syscall", "net",
	"time", "reflect", "strconv", "bufio", "io", "bytes", "strings",
	"unicode", "unicode/", "math", "math/", "sort", "slices", "maps",
	"errors", "context", "iter", "cmp",
}

// layerRules map the first frame that is not skipped to a layer, by
// package path: an entry with a trailing slash matches a package tree, one
// without matches that package only. The first match wins; no match is
// LayerOther (crypto, compression, log/slog, other modules).
//
// Two cases are choices:
//
//   - crudbench/apps/internal/serve, the middleware every app wraps its
//     routes in (panic recovery, request IDs, deadlines, the body limit),
//     is http, not app: it is the same plumbing in every app, a cost of
//     serving HTTP rather than of the API style, and counting it as app
//     would blur the one layer that differs between the apps. Its frames
//     are on every request's stack but decide only the samples spent in
//     the middleware itself, since the walk starts at the leaf. The same
//     holds for crudbench/apps/internal/metrics, the middleware every app
//     installs first on its router, and the Prometheus histogram it records
//     each request into.
//   - log/slog is other, and so is everything logging calls (see
//     isLogging): the JSON a log line is written in is logging's cost, not
//     the encoding layer's. Request logging is off at the default level.
//
// net/textproto and net/url parse requests for net/http, and the vendored
// golang.org/x/net/http packages check its headers: they are http too.
var layerRules = []struct {
	pkg, layer string
}{
	{"net/http", results.LayerHTTP},
	{"net/http/", results.LayerHTTP},
	{"net/textproto", results.LayerHTTP},
	{"net/url", results.LayerHTTP},
	{"vendor/golang.org/x/net/http/", results.LayerHTTP},
	{"github.com/go-chi/", results.LayerHTTP},
	{"crudbench/apps/internal/serve", results.LayerHTTP},
	{"crudbench/apps/internal/metrics", results.LayerHTTP},
	{"github.com/prometheus/", results.LayerHTTP},

	{"encoding/", results.LayerEncoding},
	{"html", results.LayerEncoding},
	{"html/template", results.LayerEncoding},
	{"text/template", results.LayerEncoding},
	{"text/template/", results.LayerEncoding},
	{"github.com/99designs/gqlgen/", results.LayerEncoding},
	{"github.com/vektah/gqlparser/", results.LayerEncoding},
	{"crudbench/apps/graphql/graph/generated", results.LayerEncoding},
	{"crudbench/apps/graphql/graph/model", results.LayerEncoding},
	{"github.com/a-h/templ", results.LayerEncoding},
	{"github.com/a-h/templ/", results.LayerEncoding},

	{"github.com/jackc/", results.LayerDriver},

	// The apps are main packages: their functions are named main.….
	{"main", results.LayerApp},
	{"crudbench/", results.LayerApp},
}

// layerOf returns the layer of a sample whose stack holds the functions
// frames, leaf first: runtime when a background worker is on it, other when
// it is logging, else the layer of the first frame from the leaf that is not
// skipped, and runtime when every frame is skipped (the scheduler, the
// network poller, the profiler's own goroutine).
func layerOf(frames []string) string {
	for _, f := range frames {
		if backgroundWorkers[f] {
			return results.LayerRuntime
		}
	}
	if isLogging(frames) {
		return results.LayerOther
	}
	for _, f := range frames {
		pkg := packageOf(f)
		if matches(pkg, skipped) {
			continue
		}
		layer := results.LayerOther
		for _, r := range layerRules {
			if match(pkg, r.pkg) {
				layer = r.layer
				break
			}
		}
		if (layer == results.LayerApp || layer == results.LayerOther) && isTemplating(frames) {
			// A compiled templ component is a main.… function of the app,
			// called by templ's runtime: its work is rendering, the
			// encoding layer, as html/template's is.
			return results.LayerEncoding
		}
		return layer
	}
	return results.LayerRuntime
}

// isTemplating reports whether a frame of a-h/templ is on the stack: the
// code under it renders a page.
func isTemplating(frames []string) bool {
	for _, f := range frames {
		if pkg := packageOf(f); match(pkg, "github.com/a-h/templ") || match(pkg, "github.com/a-h/templ/") {
			return true
		}
	}
	return false
}

// isLogging reports whether a log/slog frame is on the stack.
func isLogging(frames []string) bool {
	for _, f := range frames {
		if match(packageOf(f), "log/slog") {
			return true
		}
	}
	return false
}

// matches reports whether pkg matches any of patterns (see match).
func matches(pkg string, patterns []string) bool {
	for _, p := range patterns {
		if match(pkg, p) {
			return true
		}
	}
	return false
}

// match reports whether pkg is pattern or, when pattern ends in a slash,
// lies under it.
func match(pkg, pattern string) bool {
	if strings.HasSuffix(pattern, "/") {
		return strings.HasPrefix(pkg, pattern)
	}
	return pkg == pattern
}

// packageOf returns the package path of a Go function's symbol name, such
// as github.com/jackc/pgx/v5/pgconn for
// github.com/jackc/pgx/v5/pgconn.(*PgConn).Exec: the text up to the first
// dot after the last slash, once type arguments (which may hold paths of
// their own) are cut off.
func packageOf(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i]
	}
	slash := strings.LastIndexByte(fn, '/') + 1
	if dot := strings.IndexByte(fn[slash:], '.'); dot >= 0 {
		return fn[:slash+dot]
	}
	return fn
}
