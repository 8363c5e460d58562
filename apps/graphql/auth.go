package main

import (
	"context"
	"errors"

	"github.com/99designs/gqlgen/graphql"

	"crudbench/apps/internal/auth"
)

// requireSession implements the schema's @auth directive: the field runs only
// for a signed-in user. The token itself was checked by auth.Tokens.Bearer.
func requireSession(ctx context.Context, _ any, next graphql.Resolver) (any, error) {
	if _, err := session(ctx); err != nil {
		return nil, err
	}
	return next(ctx)
}

// requireEditor implements the schema's @editor directive: the field runs
// only for a signed-in user whose role may write.
func requireEditor(ctx context.Context, _ any, next graphql.Resolver) (any, error) {
	claims, err := session(ctx)
	if err != nil {
		return nil, err
	}
	if !claims.Role.CanWrite() {
		return nil, gqlError(codeForbidden, "this needs the editor role; you are signed in as "+string(claims.Role))
	}
	return next(ctx)
}

// session returns the request's user or an UNAUTHENTICATED error that says
// what to do about it.
func session(ctx context.Context) (auth.Claims, error) {
	if claims, ok := auth.FromContext(ctx); ok {
		return claims, nil
	}
	msg := "log in first: send the token of the login mutation as Authorization: Bearer <token>"
	switch err := auth.TokenError(ctx); {
	case errors.Is(err, auth.ErrExpiredToken):
		msg = "the session has expired: log in again"
	case err != nil:
		msg = "the bearer token is not valid: log in again"
	}
	return auth.Claims{}, gqlError(codeUnauthenticated, msg)
}
