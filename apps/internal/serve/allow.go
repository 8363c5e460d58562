package serve

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// routeMethods are the methods a chi route can be registered for, in the
// order Allow lists them. HEAD is not among them: every app serves it with
// middleware.GetHead wherever GET is served, so Allowed adds it after GET.
var routeMethods = []string{
	http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
	http.MethodOptions, http.MethodConnect, http.MethodTrace,
}

// Allowed lists the methods the request's router serves at the request's
// path, HEAD after GET. It asks the router itself, so an Allow header can
// never drift from the routes, and it matches the path chi matches: the
// escaped one (URL.RawPath) when the path has escapes. Outside a chi router
// it returns nil.
func Allowed(r *http.Request) []string {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil || rctx.Routes == nil {
		return nil
	}
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	var allowed []string
	for _, m := range routeMethods {
		if rctx.Routes.Match(chi.NewRouteContext(), m, path) {
			allowed = append(allowed, m)
			if m == http.MethodGet {
				allowed = append(allowed, http.MethodHead)
			}
		}
	}
	return allowed
}

// MethodNotAllowed returns the handler every app gives chi's
// MethodNotAllowed: it sets the Allow header RFC 9110 requires of a 405
// (chi leaves it out once its handler is replaced) and lets notAllowed write
// the app's own 405. chi also calls it, before looking at the path, for a
// method no route uses (PROPFIND); at a path no method serves that is the
// 404 notFound writes.
func MethodNotAllowed(notFound, notAllowed http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		allowed := Allowed(r)
		if len(allowed) == 0 {
			notFound(w, r)
			return
		}
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		notAllowed(w, r)
	}
}
