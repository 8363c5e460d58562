// Package auth issues and verifies the one session token format all crudbench
// apps share: an HS256-signed JWT that carries the user, their role and an
// expiry, so any app process can check it without a database round trip or a
// shared session store. The REST and GraphQL apps read it from an
// "Authorization: Bearer" header, the site from an HttpOnly cookie.
//
// Password checks are not here: the database store verifies bcrypt hashes and
// the apps then call Tokens.Issue.
package auth

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"crudbench/db"
)

// Role is the Store's role vocabulary: a token carries the role of the user
// it was issued to.
type Role = db.Role

// The roles, as stored in app_user.role.
const (
	RoleViewer = db.RoleViewer
	RoleEditor = db.RoleEditor
)

// Claims is who a request acts for.
type Claims struct {
	UserID    int64
	Username  string
	Role      Role
	ExpiresAt time.Time
}

// Errors returned by Verify, FromRequest and FromCookie. Apps map them to
// their own "unauthenticated" answer; the details stay server-side.
var (
	ErrNoToken      = errors.New("auth: no token")
	ErrInvalidToken = errors.New("auth: invalid token")
	ErrExpiredToken = errors.New("auth: token expired")
)

const (
	issuer = "crudbench"
	// leeway absorbs small clock differences between app replicas.
	leeway = 5 * time.Second
)

// tokenClaims is the JWT payload: registered claims (sub is the user id as a
// decimal string, as RFC 7519 wants a string) plus the username and role.
type tokenClaims struct {
	Username string `json:"name"`
	Role     Role   `json:"role"`
	jwt.RegisteredClaims
}

// Tokens issues and verifies session tokens with one secret and lifetime.
// It is safe for concurrent use.
type Tokens struct {
	secret []byte
	ttl    time.Duration
	parser *jwt.Parser
}

// NewTokens returns Tokens that sign with secret (HS256) and issue tokens
// valid for ttl. It panics when secret is empty or ttl is not positive: both
// are configuration mistakes that config.Load already rejects.
func NewTokens(secret []byte, ttl time.Duration) *Tokens {
	if len(secret) == 0 {
		panic("auth: empty token secret")
	}
	if ttl <= 0 {
		panic("auth: token ttl must be positive")
	}
	return &Tokens{
		secret: append([]byte(nil), secret...),
		ttl:    ttl,
		parser: jwt.NewParser(
			// Pinning the algorithm blocks "none" and key-confusion attacks.
			jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
			jwt.WithIssuer(issuer),
			jwt.WithExpirationRequired(),
			jwt.WithIssuedAt(),
			jwt.WithLeeway(leeway),
		),
	}
}

// Issue returns a signed token for the user and the moment it expires
// (whole seconds, as carried in the token). It fails for an unknown role.
func (t *Tokens) Issue(userID int64, username string, role Role) (token string, expires time.Time, err error) {
	if !role.Valid() {
		return "", time.Time{}, fmt.Errorf("auth: issue token: unknown role %q", role)
	}
	now := time.Now().Truncate(time.Second)
	expires = now.Add(t.ttl)
	claims := tokenClaims{
		Username: username,
		Role:     role,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   strconv.FormatInt(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expires),
		},
	}
	token, err = jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.secret)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("auth: sign token: %w", err)
	}
	return token, expires, nil
}

// Verify checks the token's signature, algorithm, issuer, issue time and
// expiry and returns its claims. It returns an error matching
// ErrExpiredToken for an expired token and ErrInvalidToken for anything else
// wrong, including an unknown role.
func (t *Tokens) Verify(token string) (Claims, error) {
	var tc tokenClaims
	_, err := t.parser.ParseWithClaims(token, &tc, func(*jwt.Token) (any, error) { return t.secret, nil })
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return Claims{}, ErrExpiredToken
	case err != nil:
		return Claims{}, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	userID, err := strconv.ParseInt(tc.Subject, 10, 64)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: subject is not a user id", ErrInvalidToken)
	}
	if !tc.Role.Valid() {
		return Claims{}, fmt.Errorf("%w: unknown role %q", ErrInvalidToken, tc.Role)
	}
	return Claims{
		UserID:    userID,
		Username:  tc.Username,
		Role:      tc.Role,
		ExpiresAt: tc.ExpiresAt.Time,
	}, nil
}
