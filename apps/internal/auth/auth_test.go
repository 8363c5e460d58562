package auth_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"crudbench/apps/internal/auth"
)

var secret = []byte("test-secret-0123456789")

const ttl = time.Hour

// payload mirrors the token's JSON claims so tests can forge tokens the way
// an attacker or a misconfigured peer would.
type payload struct {
	Name string `json:"name"`
	Role string `json:"role"`
	jwt.RegisteredClaims
}

func validPayload() payload {
	now := time.Now()
	return payload{
		Name: "editor",
		Role: "editor",
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    "crudbench",
			Subject:   "2",
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
		},
	}
}

func sign(t *testing.T, method jwt.SigningMethod, key any, p payload) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, p).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRoleCanWrite(t *testing.T) {
	for role, want := range map[auth.Role]bool{auth.RoleEditor: true, auth.RoleViewer: false, "admin": false} {
		if got := role.CanWrite(); got != want {
			t.Errorf("%q.CanWrite() = %v, want %v", role, got, want)
		}
	}
}

func TestIssueVerify(t *testing.T) {
	tokens := auth.NewTokens(secret, ttl)
	token, expires, err := tokens.Issue(42, "viewer", auth.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(expires); d < ttl-2*time.Second || d > ttl {
		t.Errorf("expires in %v, want about %v", d, ttl)
	}
	got, err := tokens.Verify(token)
	if err != nil {
		t.Fatalf("Verify(fresh token): %v", err)
	}
	want := auth.Claims{UserID: 42, Username: "viewer", Role: auth.RoleViewer, ExpiresAt: expires}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}

	// Another process with the same secret accepts it: no shared state.
	if _, err := auth.NewTokens(secret, ttl).Verify(token); err != nil {
		t.Errorf("Verify by a second Tokens: %v", err)
	}
}

func TestIssueUnknownRole(t *testing.T) {
	if _, _, err := auth.NewTokens(secret, ttl).Issue(1, "root", "admin"); err == nil {
		t.Error("Issue with role admin succeeded")
	}
}

func TestVerifyRejects(t *testing.T) {
	tokens := auth.NewTokens(secret, ttl)
	good, _, err := tokens.Issue(2, "editor", auth.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(good, ".")

	tests := []struct {
		name  string
		token func(t *testing.T) string
		want  error
	}{
		{"expired", func(t *testing.T) string {
			p := validPayload()
			p.IssuedAt = jwt.NewNumericDate(time.Now().Add(-2 * time.Hour))
			p.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Minute))
			return sign(t, jwt.SigningMethodHS256, secret, p)
		}, auth.ErrExpiredToken},
		{"tampered signature", func(t *testing.T) string {
			sig := []byte(parts[2])
			sig[len(sig)/2] ^= 1 // stays base64url, changes the bytes
			return parts[0] + "." + parts[1] + "." + string(sig)
		}, auth.ErrInvalidToken},
		{"tampered payload", func(t *testing.T) string {
			p := validPayload()
			p.Subject = "1" // someone else, signed by us for user 2
			forged := strings.Split(sign(t, jwt.SigningMethodHS256, []byte("other-secret-0123456789"), p), ".")
			return parts[0] + "." + forged[1] + "." + parts[2]
		}, auth.ErrInvalidToken},
		{"alg none", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, validPayload())
		}, auth.ErrInvalidToken},
		{"alg HS512", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS512, secret, validPayload())
		}, auth.ErrInvalidToken},
		{"wrong secret", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, []byte("another-secret-0123456789"), validPayload())
		}, auth.ErrInvalidToken},
		{"wrong issuer", func(t *testing.T) string {
			p := validPayload()
			p.Issuer = "someone-else"
			return sign(t, jwt.SigningMethodHS256, secret, p)
		}, auth.ErrInvalidToken},
		{"no expiry", func(t *testing.T) string {
			p := validPayload()
			p.ExpiresAt = nil
			return sign(t, jwt.SigningMethodHS256, secret, p)
		}, auth.ErrInvalidToken},
		{"issued in the future", func(t *testing.T) string {
			p := validPayload()
			p.IssuedAt = jwt.NewNumericDate(time.Now().Add(10 * time.Minute))
			return sign(t, jwt.SigningMethodHS256, secret, p)
		}, auth.ErrInvalidToken},
		{"unknown role", func(t *testing.T) string {
			p := validPayload()
			p.Role = "admin"
			return sign(t, jwt.SigningMethodHS256, secret, p)
		}, auth.ErrInvalidToken},
		{"subject not a user id", func(t *testing.T) string {
			p := validPayload()
			p.Subject = "editor"
			return sign(t, jwt.SigningMethodHS256, secret, p)
		}, auth.ErrInvalidToken},
		{"garbage", func(*testing.T) string { return "not.a.token" }, auth.ErrInvalidToken},
		{"empty", func(*testing.T) string { return "" }, auth.ErrInvalidToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			claims, err := tokens.Verify(tt.token(t))
			if !errors.Is(err, tt.want) {
				t.Errorf("Verify error = %v, want %v", err, tt.want)
			}
			if claims != (auth.Claims{}) {
				t.Errorf("Verify returned claims %+v with an error", claims)
			}
		})
	}
}

func TestVerifyLeeway(t *testing.T) {
	// Replicas' clocks differ a little: a token that expired a second ago
	// still passes, one that expired a minute ago does not.
	p := validPayload()
	p.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Second))
	if _, err := auth.NewTokens(secret, ttl).Verify(sign(t, jwt.SigningMethodHS256, secret, p)); err != nil {
		t.Errorf("token expired 1s ago: %v, want accepted within the leeway", err)
	}
}

// whoami answers with the request's claims or why there are none.
func whoami(w http.ResponseWriter, r *http.Request) {
	if c, ok := auth.FromContext(r.Context()); ok {
		fmt.Fprintf(w, "%d %s %s", c.UserID, c.Username, c.Role)
		return
	}
	w.WriteHeader(http.StatusUnauthorized)
	switch err := auth.TokenError(r.Context()); {
	case err == nil:
		io.WriteString(w, "anonymous")
	case errors.Is(err, auth.ErrExpiredToken):
		io.WriteString(w, "expired")
	case errors.Is(err, auth.ErrInvalidToken):
		io.WriteString(w, "invalid")
	default:
		fmt.Fprintf(w, "unexpected error %v", err)
	}
}

func do(t *testing.T, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestBearer(t *testing.T) {
	tokens := auth.NewTokens(secret, ttl)
	token, _, err := tokens.Issue(7, "editor", auth.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	expired := validPayload()
	expired.ExpiresAt = jwt.NewNumericDate(time.Now().Add(-time.Hour))
	expiredToken := sign(t, jwt.SigningMethodHS256, secret, expired)

	srv := httptest.NewServer(tokens.Bearer(http.HandlerFunc(whoami)))
	defer srv.Close()

	tests := []struct {
		name       string
		header     string // Authorization; empty means none
		wantStatus int
		wantBody   string
	}{
		{"no header", "", http.StatusUnauthorized, "anonymous"},
		{"bearer", "Bearer " + token, http.StatusOK, "7 editor editor"},
		{"scheme lower case", "bearer " + token, http.StatusOK, "7 editor editor"},
		{"scheme upper case", "BEARER " + token, http.StatusOK, "7 editor editor"},
		{"basic scheme", "Basic ZWRpdG9yOmVkaXRvcg==", http.StatusUnauthorized, "invalid"},
		{"bearer without token", "Bearer", http.StatusUnauthorized, "invalid"},
		{"bare token", token, http.StatusUnauthorized, "invalid"},
		{"bad token", "Bearer " + token + "x", http.StatusUnauthorized, "invalid"},
		{"expired token", "Bearer " + expiredToken, http.StatusUnauthorized, "expired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			status, body := do(t, srv.Client(), req)
			if status != tt.wantStatus || body != tt.wantBody {
				t.Errorf("got %d %q, want %d %q", status, body, tt.wantStatus, tt.wantBody)
			}
		})
	}
}

func TestFromRequestNoToken(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	if _, err := auth.NewTokens(secret, ttl).FromRequest(r); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("FromRequest without header: %v, want ErrNoToken", err)
	}
}

// siteHandler logs in on /login, logs out on /logout and answers whoami
// elsewhere, all behind the Cookie middleware.
func siteHandler(t *testing.T, tokens *auth.Tokens) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		token, expires, err := tokens.Issue(3, "viewer", auth.RoleViewer)
		if err != nil {
			t.Error(err)
			http.Error(w, "issue failed", http.StatusInternalServerError)
			return
		}
		tokens.SetCookie(w, r, token, expires)
	})
	mux.HandleFunc("/logout", auth.ClearCookie)
	mux.HandleFunc("/", whoami)
	return tokens.Cookie(mux)
}

func sessionCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == auth.CookieName {
			return c
		}
	}
	t.Fatalf("no %s cookie in %q", auth.CookieName, resp.Header.Values("Set-Cookie"))
	return nil
}

func TestCookieAttributes(t *testing.T) {
	tokens := auth.NewTokens(secret, ttl)
	for _, tls := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", tls), func(t *testing.T) {
			var srv *httptest.Server
			if tls {
				srv = httptest.NewTLSServer(siteHandler(t, tokens))
			} else {
				srv = httptest.NewServer(siteHandler(t, tokens))
			}
			defer srv.Close()

			resp, err := srv.Client().Post(srv.URL+"/login", "text/plain", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			c := sessionCookie(t, resp)
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure != tls {
				t.Errorf("cookie %q: want HttpOnly, SameSite=Lax, Path=/, Secure=%v", resp.Header.Get("Set-Cookie"), tls)
			}
			if want := int(ttl / time.Second); c.MaxAge < want-2 || c.MaxAge > want {
				t.Errorf("cookie Max-Age = %d, want about %d", c.MaxAge, want)
			}

			resp, err = srv.Client().Post(srv.URL+"/logout", "text/plain", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			c = sessionCookie(t, resp)
			if c.MaxAge >= 0 || c.Value != "" || !c.HttpOnly || c.Path != "/" {
				t.Errorf("logout cookie %q: want an empty HttpOnly cookie with Max-Age=0", resp.Header.Get("Set-Cookie"))
			}
		})
	}
}

func TestCookieSession(t *testing.T) {
	tokens := auth.NewTokens(secret, ttl)
	srv := httptest.NewServer(siteHandler(t, tokens))
	defer srv.Close()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := srv.Client()
	client.Jar = jar

	step := func(method, path string, wantStatus int, wantBody string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		status, body := do(t, client, req)
		if status != wantStatus || body != wantBody {
			t.Errorf("%s %s = %d %q, want %d %q", method, path, status, body, wantStatus, wantBody)
		}
	}
	step(http.MethodGet, "/me", http.StatusUnauthorized, "anonymous")
	step(http.MethodPost, "/login", http.StatusOK, "")
	step(http.MethodGet, "/me", http.StatusOK, "3 viewer viewer")
	step(http.MethodPost, "/logout", http.StatusOK, "")
	step(http.MethodGet, "/me", http.StatusUnauthorized, "anonymous")

	// A cookie signed with another secret is a failed session, not anonymous.
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: sign(t, jwt.SigningMethodHS256, []byte("another-secret-0123456789"), validPayload())})
	if status, body := do(t, srv.Client(), req); status != http.StatusUnauthorized || body != "invalid" {
		t.Errorf("forged cookie = %d %q, want 401 \"invalid\"", status, body)
	}
}

func TestContext(t *testing.T) {
	ctx := context.Background()
	if _, ok := auth.FromContext(ctx); ok {
		t.Error("FromContext(empty) ok = true")
	}
	if err := auth.TokenError(ctx); err != nil {
		t.Errorf("TokenError(empty) = %v, want nil", err)
	}
	want := auth.Claims{UserID: 9, Username: "editor", Role: auth.RoleEditor, ExpiresAt: time.Unix(1700000000, 0)}
	got, ok := auth.FromContext(auth.WithClaims(ctx, want))
	if !ok || got != want {
		t.Errorf("FromContext(WithClaims(%+v)) = %+v, %v", want, got, ok)
	}
}
