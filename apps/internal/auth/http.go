package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

// CookieName is the site's session cookie.
const CookieName = "crudbench_session"

// FromRequest verifies the token in the "Authorization: Bearer <token>"
// header; the scheme is matched case-insensitively (RFC 9110). It returns
// ErrNoToken when the header is absent or empty, and ErrInvalidToken when it
// is present but not a bearer token.
func (t *Tokens) FromRequest(r *http.Request) (Claims, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return Claims{}, ErrNoToken
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return Claims{}, ErrInvalidToken
	}
	return t.Verify(token)
}

// SetCookie stores token in the site's session cookie until expires (as
// returned by Issue), never longer than the token lifetime. The cookie is
// HttpOnly (scripts cannot read it), SameSite=Lax (not sent on cross-site
// subrequests and posts), Path=/ and Secure when the request came over TLS.
func (t *Tokens) SetCookie(w http.ResponseWriter, r *http.Request, token string, expires time.Time) {
	maxAge := int(min(time.Until(expires).Round(time.Second), t.ttl) / time.Second)
	if maxAge <= 0 {
		maxAge = -1 // already expired: tell the browser to drop it
	}
	http.SetCookie(w, sessionCookie(r, token, expires, maxAge))
}

// ClearCookie removes the site's session cookie (log out).
func ClearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, sessionCookie(r, "", time.Unix(0, 0), -1))
}

func sessionCookie(r *http.Request, value string, expires time.Time, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     CookieName,
		Value:    value,
		Path:     "/",
		Expires:  expires.UTC(),
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   r.TLS != nil,
		SameSite: http.SameSiteLaxMode,
	}
}

// FromCookie verifies the token in the site's session cookie. It returns
// ErrNoToken when the cookie is absent or empty.
func (t *Tokens) FromCookie(r *http.Request) (Claims, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || c.Value == "" {
		return Claims{}, ErrNoToken
	}
	return t.Verify(c.Value)
}

type contextKey int

const (
	claimsKey contextKey = iota
	tokenErrorKey
)

// WithClaims returns a context carrying c, for FromContext.
func WithClaims(ctx context.Context, c Claims) context.Context {
	return context.WithValue(ctx, claimsKey, c)
}

// FromContext returns the claims stored by Bearer, Cookie or WithClaims; ok
// is false for an anonymous request.
func FromContext(ctx context.Context) (c Claims, ok bool) {
	c, ok = ctx.Value(claimsKey).(Claims)
	return c, ok
}

// TokenError returns why a token sent with the request was rejected
// (matching ErrInvalidToken or ErrExpiredToken), or nil when the request
// carried a valid token or none. Apps use it to tell "session expired" from
// "not signed in".
func TokenError(ctx context.Context) error {
	err, _ := ctx.Value(tokenErrorKey).(error)
	return err
}

// Bearer is middleware that verifies the request's bearer token, if any, and
// stores its claims in the request context. It never rejects a request:
// anonymous and badly authenticated requests go on without claims (the error
// is kept for TokenError), and each app answers them in its own idiom.
func (t *Tokens) Bearer(next http.Handler) http.Handler {
	return t.middleware(t.FromRequest, next)
}

// Cookie is middleware like Bearer that reads the site's session cookie.
func (t *Tokens) Cookie(next http.Handler) http.Handler {
	return t.middleware(t.FromCookie, next)
}

func (t *Tokens) middleware(read func(*http.Request) (Claims, error), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := read(r)
		switch {
		case err == nil:
			r = r.WithContext(WithClaims(r.Context(), c))
		case !errors.Is(err, ErrNoToken):
			r = r.WithContext(context.WithValue(r.Context(), tokenErrorKey, err))
		}
		next.ServeHTTP(w, r)
	})
}
