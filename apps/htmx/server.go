package main

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// NewServer returns the site's whole HTTP surface: the routes of routes.go
// behind the middleware every request passes, outermost first: security
// headers, the middleware the Go HTTP apps share (serve.Stack: panic recovery,
// request ID, the request deadline timeout, the body size limit, request
// logging at debug level), refusal of cross-site form posts and the session
// cookie; m's request histogram is the router's first middleware.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, views *views, m *metrics.Metrics) http.Handler {
	r := chi.NewRouter()
	r.Use(m.Requests)
	addRoutes(r, store, tokens, views)

	var h http.Handler = r
	h = tokens.Cookie(h)
	// Browsers mark cross-site requests with Sec-Fetch-Site (or an Origin
	// that differs from Host): such POSTs and DELETEs never reach a handler.
	// Non-browser clients (the bench, curl) send neither and pass.
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(views.crossOrigin))
	h = cop.Handler(h)
	h = serve.Stack{
		Logger:     logger,
		Timeout:    timeout,
		OnPanic:    views.panicked,
		OnTooLarge: views.tooLarge,
	}.Wrap(h)
	return securityHeaders(h)
}

// contentSecurityPolicy allows only this site's own scripts, styles and
// forms: even if some text slipped through escaping, a browser would not run
// an injected script. htmx runs with allowEval off and without injecting its
// indicator styles (see layout.html), so it needs no exception.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// securityHeaders sets the headers every response carries.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}
