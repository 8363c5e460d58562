package main

import (
	"context"
	"time"

	"crudbench/apps/internal/auth"
	"crudbench/db"
)

// loginRequest is the body of a login, REST's.
type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// loginResponse carries the bearer token for every other operation.
type loginResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// handleLogin checks a username and password and answers a signed token.
// Wrong credentials are 401, whichever of the two was wrong.
func handleLogin(store *db.Store, tokens *auth.Tokens) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		in, err := decode[loginRequest](req)
		if err != nil {
			return 0, nil, err
		}
		user, err := store.Authenticate(ctx, in.Username, in.Password)
		if err != nil {
			return 0, nil, err
		}
		token, expires, err := tokens.Issue(user.ID, user.Username, user.Role)
		if err != nil {
			return 0, nil, err
		}
		return 200, loginResponse{Token: token, ExpiresAt: expires}, nil
	}
}
