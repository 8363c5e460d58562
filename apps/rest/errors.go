package main

import (
	"log/slog"
	"net/http"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/serve"
)

// problem is the body of every error response.
type problem = httpproblem.Details

// respondError answers err with httpproblem.Of's status and problem body.
// EINVALID counts as a request with a body on every method but GET and
// DELETE.
func respondError(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) {
	withBody := r.Method != http.MethodGet && r.Method != http.MethodDelete
	e := httpproblem.Of(r.Context(), logger, err, withBody)
	writeProblem(w, r, e.Status, e.Detail, e.Fields)
}

// writeProblem writes a problem+json response. A 401 names the scheme to
// use unless the caller did (RFC 9110 requires WWW-Authenticate on it); a
// 503 suggests when to try again.
func writeProblem(w http.ResponseWriter, r *http.Request, status int, detail string, fields map[string]string) {
	h := w.Header()
	switch status {
	case http.StatusUnauthorized:
		if h.Get("WWW-Authenticate") == "" {
			h.Set("WWW-Authenticate", `Bearer realm="crudbench"`)
		}
	case http.StatusServiceUnavailable:
		h.Set("Retry-After", serve.RetryAfter)
	}
	writeJSON(w, status, "application/problem+json", problem(httpproblem.New(status, detail, r.URL.Path, fields)))
}
