package main

import (
	"log/slog"
	"net/http"
	"time"

	"crudbench/apps/internal/auth"
	"crudbench/db"
)

// loginRequest is the body of POST /api/login.
type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// loginResponse carries the bearer token for every other /api request.
type loginResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// handleLogin checks a username and password and answers a signed token.
// Wrong credentials are 401, whichever of the two was wrong.
func handleLogin(logger *slog.Logger, store *db.Store, tokens *auth.Tokens) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := decode[loginRequest](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		user, err := store.Authenticate(r.Context(), in.Username, in.Password)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		token, expires, err := tokens.Issue(user.ID, user.Username, user.Role)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		encode(w, http.StatusOK, loginResponse{Token: token, ExpiresAt: expires})
	})
}
