package scenario

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Interchange checks that the apps of two sessions accept each other's
// token, as every crudbench app signed with the same AUTH_SECRET must (the
// same HS256 JWT and claims, docs/contract.md): read-small, validated as
// it is on its own, answered for a token the other app issued. A server
// that issues claims of its own passes every scenario with its own tokens
// and is refused by the others. Only apps known to share a secret can be
// checked: the runner's, when it starts them.
func (v *Validator) Interchange(ctx context.Context, a, b *Session) error {
	var errs []error
	for _, p := range [][2]*Session{{a, b}, {b, a}} {
		issuer, reader := p[0], p[1]
		token := issuer.token()
		if token == "" {
			errs = append(errs, fmt.Errorf("token interchange: %s's session carries no token", issuer.App.Name))
			continue
		}
		if err := v.read(ctx, reader.App.withToken(token), OpReadSmall); err != nil {
			errs = append(errs, fmt.Errorf("token interchange: a token issued by %s is refused by %s: %w", issuer.App.Name, reader.App.Name, err))
		}
	}
	return errors.Join(errs...)
}

// token is the session's token: the bearer token of its Authorization
// header, or the site's session cookie, which holds the same JWT.
func (s *Session) token() string {
	if t, ok := strings.CutPrefix(s.Header.Get("Authorization"), "Bearer "); ok {
		return t
	}
	for _, c := range (&http.Request{Header: s.Header}).Cookies() {
		if c.Name == sessionCookie {
			return c.Value
		}
	}
	return ""
}

// withToken is a session of a that carries token as a's kind carries one.
func (a *App) withToken(token string) *Session {
	if a.Kind == KindSite {
		return &Session{App: a, Header: http.Header{"Cookie": {(&http.Cookie{Name: sessionCookie, Value: token}).String()}}}
	}
	return &Session{App: a, Header: http.Header{"Authorization": {"Bearer " + token}}}
}
