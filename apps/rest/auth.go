package main

import (
	"errors"
	"net/http"

	"crudbench/apps/internal/auth"
)

// requireUser answers 401 unless tokens.Bearer (which runs first) found a
// valid token. A token that was sent but rejected gets RFC 6750's
// invalid_token, and the detail tells an expired token from a bad one, so a
// client knows to log in again.
func requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := auth.FromContext(r.Context()); ok {
			next.ServeHTTP(w, r)
			return
		}
		detail := "log in first: POST /api/login, then send the token as Authorization: Bearer"
		if err := auth.TokenError(r.Context()); err != nil {
			detail = "the token is not valid: log in again"
			if errors.Is(err, auth.ErrExpiredToken) {
				detail = "the token has expired: log in again"
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="crudbench", error="invalid_token"`)
		}
		writeProblem(w, r, http.StatusUnauthorized, detail, nil)
	})
}

// requireEditor answers 403 to a signed-in user whose role may not write.
// It runs after requireUser.
func requireEditor(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := auth.FromContext(r.Context()); ok && c.Role.CanWrite() {
			next.ServeHTTP(w, r)
			return
		}
		writeProblem(w, r, http.StatusForbidden, "your role may read but not change data", nil)
	})
}
