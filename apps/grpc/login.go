package main

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"crudbench/apps/grpc/gen/crudbenchv1"
)

// Login checks a username and password and returns a signed token, the
// same token the HTTP apps issue: wrong credentials are UNAUTHENTICATED,
// whichever of the two was wrong.
func (s *staff) Login(ctx context.Context, req *crudbenchv1.LoginRequest) (*crudbenchv1.LoginResponse, error) {
	user, err := s.store.Authenticate(ctx, req.GetUsername(), req.GetPassword())
	if err != nil {
		return nil, err
	}
	token, expires, err := s.tokens.Issue(user.ID, user.Username, user.Role)
	if err != nil {
		return nil, err
	}
	// The REST app's Cache-Control: no-store, for proxies that cache.
	grpc.SetHeader(ctx, metadata.Pairs("cache-control", "no-store"))
	return &crudbenchv1.LoginResponse{Token: token, ExpiresAt: timestamp(expires)}, nil
}
