package main

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/apps/internal/auth"
)

// TestAuth holds the app to REST's rules: every operation but healthz and
// login needs a valid token, writes need the editor role, and the answers
// say what to do.
func TestAuth(t *testing.T) {
	a := newApp(t)
	expired := expiredToken(t)
	foreign := issue(t, auth.NewTokens([]byte("another-secret-0123456789"), time.Hour), 2, "editor", auth.RoleEditor)
	for _, c := range []struct {
		name   string
		token  string
		header any // the authorization header as sent, when token is ""
		want   int
		detail string
	}{
		{name: "no token", want: 401, detail: "log in first"},
		{name: "expired", token: expired, want: 401, detail: "the token has expired: log in again"},
		{name: "another secret", token: foreign, want: 401, detail: "the token is not valid: log in again"},
		{name: "not a JWT", token: "abc", want: 401, detail: "the token is not valid: log in again"},
		{name: "no scheme", header: a.viewer, want: 401, detail: "the token is not valid: log in again"},
		{name: "not a string", header: int32(7), want: 401, detail: "the token is not valid: log in again"},
		{name: "scheme in lower case", header: "bearer " + a.viewer, want: 200},
		{name: "viewer", token: a.viewer, want: 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := amqprpc.Request{Type: "person.get", Token: c.token, Params: map[string]string{"id": "1"}}
			if c.header != nil {
				req.Headers = amqp.Table{"authorization": c.header}
			}
			r := callWith(t, a.client, req)
			if c.want == 200 {
				r.want(t, 200)
				return
			}
			if p := r.wantProblem(t, c.want); len(p.Detail) < len(c.detail) || p.Detail[:len(c.detail)] != c.detail {
				t.Errorf("detail %q, want it to start %q", p.Detail, c.detail)
			}
		})
	}
	t.Run("viewer writing", func(t *testing.T) {
		p := a.call(t, "vacancy.create", a.viewer, vacancyBody()).wantProblem(t, 403)
		if p.Detail != "your role may read but not change data" {
			t.Errorf("detail %q", p.Detail)
		}
		a.call(t, "vacancy.delete", a.viewer, nil, "id", "1").wantProblem(t, 403)
		a.call(t, "person.update", a.viewer, `{"version":1}`, "id", "1").wantProblem(t, 403)
	})
	t.Run("every operation but healthz and login needs a token", func(t *testing.T) {
		for op, o := range operations(nil, nil) {
			if o.access == open {
				if op != "healthz" && op != "login" {
					t.Errorf("%s is open", op)
				}
				continue
			}
			a.call(t, op, "", nil, "id", "1").wantProblem(t, 401)
		}
	})
}

// expiredToken is a token signed with the test secret that expired an hour
// ago (well past the verifier's leeway).
func expiredToken(t *testing.T) string {
	t.Helper()
	now := time.Now()
	claims := jwt.MapClaims{
		"iss": "crudbench", "sub": "2", "name": "editor", "role": "editor",
		"iat": now.Add(-2 * time.Hour).Unix(), "exp": now.Add(-time.Hour).Unix(),
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
