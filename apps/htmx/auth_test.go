package main

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// TestAuthMatrix sends every route as an anonymous user, a viewer and an
// editor: pages need a session, writes need the editor role.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	forRenderers(t, testAuthMatrix)
}

func testAuthMatrix(t *testing.T, ts *testSite) {
	anon, viewer, editor := ts.client(t), ts.login(t, "viewer"), ts.login(t, "editor")

	type route struct {
		method, path string
		write        bool // needs the editor role
	}
	routes := []route{
		{"GET", "/persons", false}, {"GET", "/persons/1", false}, {"GET", "/persons/options", false},
		{"GET", "/vacancies", false}, {"GET", "/vacancies/1", false},
		{"GET", "/persons/new", true}, {"GET", "/persons/1/edit", true},
		{"GET", "/vacancies/new", true}, {"GET", "/vacancies/1/edit", true},
		{"GET", "/persons/1/delete", true}, {"GET", "/vacancies/1/delete", true},
		{"POST", "/persons", true}, {"POST", "/persons/1", true},
		{"POST", "/vacancies", true}, {"POST", "/vacancies/1", true},
		// Deletes of rows nobody else needs: vacancy 2 and person 2.
		{"POST", "/vacancies/2/delete", true}, {"DELETE", "/vacancies/2", true},
		{"POST", "/persons/2/delete", true}, {"DELETE", "/persons/2", true},
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			var body *strings.Reader
			if rt.method == "POST" {
				body = strings.NewReader(vacancyForm("Matrix").Encode())
			}
			send := func(c *client, h ...string) response {
				if body == nil {
					return c.do(rt.method, rt.path, nil, h)
				}
				body.Seek(0, 0)
				return c.do(rt.method, rt.path, body, h)
			}

			res := send(anon)
			wantStatus(t, "anonymous", res, http.StatusSeeOther)
			if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/login") {
				t.Errorf("anonymous: Location %q, want /login…", loc)
			}
			res = send(anon, htmxHeaders("")...)
			wantStatus(t, "anonymous htmx", res, http.StatusUnauthorized)
			if loc := res.Header.Get("HX-Redirect"); !strings.HasPrefix(loc, "/login") {
				t.Errorf("anonymous htmx: HX-Redirect %q, want /login…", loc)
			}

			if rt.method == "GET" {
				wantStatus(t, "editor", send(editor), http.StatusOK)
			}
			res = send(viewer)
			if rt.write {
				wantStatus(t, "viewer", res, http.StatusForbidden)
				wantBody(t, "viewer", res, "Editors only")
			} else {
				wantStatus(t, "viewer", res, http.StatusOK)
			}
		})
	}

	// Nothing the anonymous user or the viewer sent changed anything.
	for _, id := range []int64{1, 2} {
		v, err := ts.store.FindVacancyByID(context.Background(), id)
		if err != nil || v.Version != 1 || v.Title == "Matrix" {
			t.Errorf("vacancy %d after refused writes: %+v, %v", id, v, err)
		}
		if _, err := ts.store.FindPersonByID(context.Background(), id); err != nil {
			t.Errorf("person %d after refused writes: %v", id, err)
		}
	}

	// The viewer sees no edit controls; the editor does.
	for _, path := range []string{"/persons", "/persons/1", "/vacancies", "/vacancies/1"} {
		wantNoBody(t, "viewer "+path, viewer.get(path), "/edit", "hx-delete", "/new", "/delete")
	}
	wantBody(t, "editor /persons/1", editor.get("/persons/1"), `href="/persons/1/edit"`, `hx-delete="/persons/1"`, `href="/persons/1/delete"`)
	wantBody(t, "editor /vacancies", editor.get("/vacancies"), `href="/vacancies/new"`)
}

// TestLoginLogout covers the sign-in form, its messages, the return to the
// page asked for and signing out.
func TestLoginLogout(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	c := ts.client(t)

	res := c.get("/vacancies?status=open")
	wantStatus(t, "anonymous", res, http.StatusSeeOther)
	loginURL := res.Header.Get("Location")
	if loginURL != "/login?next=%2Fvacancies%3Fstatus%3Dopen" {
		t.Fatalf("Location = %q", loginURL)
	}
	res = c.get(loginURL)
	wantStatus(t, "login page", res, http.StatusOK)
	wantBody(t, "login page", res, `name="next" value="/vacancies?status=open"`, `name="username"`, `type="password"`)

	res = c.post("/login", url.Values{"username": {"editor"}, "password": {"wrong"}, "next": {"/vacancies?status=open"}})
	wantStatus(t, "wrong password", res, http.StatusUnauthorized)
	wantBody(t, "wrong password", res, "Wrong username or password.", `value="editor"`, `name="next" value="/vacancies?status=open"`)
	wantNoBody(t, "wrong password", res, `value="wrong"`)
	if res.Header.Get("Set-Cookie") != "" {
		t.Errorf("wrong password set a cookie: %q", res.Header.Get("Set-Cookie"))
	}

	res = c.post("/login", url.Values{"username": {""}, "password": {""}})
	wantStatus(t, "empty form", res, http.StatusUnprocessableEntity)
	wantBody(t, "empty form", res, "Username is required.", "Password is required.")

	res = c.post("/login", url.Values{"username": {"nobody"}, "password": {strings.Repeat("x", 100)}})
	wantStatus(t, "unknown user", res, http.StatusUnauthorized)

	res = c.post("/login", url.Values{"username": {"editor"}, "password": {"editor"}, "next": {"/vacancies?status=open"}})
	wantStatus(t, "login", res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); loc != "/vacancies?status=open" {
		t.Errorf("after login Location = %q, want the page asked for", loc)
	}
	cookie := res.Header.Get("Set-Cookie")
	for _, attr := range []string{auth.CookieName + "=", "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(cookie, attr) {
			t.Errorf("session cookie %q lacks %s", cookie, attr)
		}
	}
	var token string
	for _, ck := range (&http.Response{Header: res.Header}).Cookies() {
		if ck.Name == auth.CookieName {
			token = ck.Value
		}
	}
	wantStatus(t, "signed in", c.get("/vacancies"), http.StatusOK)
	res = c.get("/login")
	wantStatus(t, "login page when signed in", res, http.StatusSeeOther)

	res = c.post("/logout", nil)
	wantStatus(t, "logout", res, http.StatusSeeOther)
	if res.Header.Get("Location") != "/login" {
		t.Errorf("logout Location = %q", res.Header.Get("Location"))
	}
	wantBody(t, "after logout", c.get("/login"), "You are signed out.")
	wantStatus(t, "after logout", c.get("/vacancies"), http.StatusSeeOther)

	// Signing out deletes the cookie but cannot revoke the token, which is
	// checked without the database: a copy kept from before still works
	// until it expires, as the READMEs say (hence the short TOKEN_TTL).
	replayed := ts.client(t).get("/vacancies", "Cookie", auth.CookieName+"="+token)
	wantStatus(t, "the signed-out token, replayed", replayed, http.StatusOK)

	// Destinations off the site are ignored.
	for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"} {
		res := ts.client(t).post("/login", url.Values{"username": {"viewer"}, "password": {"viewer"}, "next": {next}})
		if loc := res.Header.Get("Location"); loc != "/persons" {
			t.Errorf("next=%q: Location %q, want /persons", next, loc)
		}
	}
}

// TestBadSessions sends forged and expired session cookies: both count as
// signed out, and the login page deletes them (with a word when expired).
func TestBadSessions(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)

	expired := signToken(t, testSecret, time.Now().Add(-2*time.Hour), time.Now().Add(-time.Hour), "editor")
	otherKey := signToken(t, []byte("not-the-site-secret-0123456789"), time.Now(), time.Now().Add(time.Hour), "editor")
	badRole := signToken(t, testSecret, time.Now(), time.Now().Add(time.Hour), "admin")
	tests := []struct {
		name, cookie, notice string
	}{
		{"garbage", "not-a-token", ""},
		{"other key", otherKey, ""},
		{"unknown role", badRole, ""},
		{"expired", expired, "Your session has expired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ts.client(t)
			u, _ := url.Parse(ts.URL)
			c.http.Jar.SetCookies(u, []*http.Cookie{{Name: auth.CookieName, Value: tt.cookie, Path: "/"}})

			res := c.get("/persons/1")
			wantStatus(t, "page", res, http.StatusSeeOther)
			res = c.post("/vacancies", vacancyForm("Forged"))
			wantStatus(t, "write", res, http.StatusSeeOther)

			res = c.get("/login")
			wantStatus(t, "login page", res, http.StatusOK)
			if tt.notice != "" {
				wantBody(t, "login page", res, tt.notice)
			}
			if sc := res.Header.Get("Set-Cookie"); !strings.Contains(sc, auth.CookieName+"=;") || !strings.Contains(sc, "Max-Age=0") {
				t.Errorf("login page did not delete the bad cookie: %q", sc)
			}
		})
	}
	page, err := ts.store.FindVacancies(context.Background(), db.VacancyFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range page.Vacancies {
		if v.Title == "Forged" {
			t.Errorf("a forged session created vacancy %d", v.ID)
		}
	}
}

// signToken makes a session token as auth.Tokens would, with any key, times
// and role.
func signToken(t *testing.T, key []byte, issued, expires time.Time, role string) string {
	t.Helper()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "crudbench", "sub": "2", "name": "editor", "role": role,
		"iat": issued.Unix(), "exp": expires.Unix(),
	}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestCrossOrigin checks that form posts sent by another site's page are
// refused before any handler runs, while same-origin browser posts and
// non-browser clients (no Origin, no Sec-Fetch-Site) pass.
func TestCrossOrigin(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	editor := ts.login(t, "editor")
	host := strings.TrimPrefix(ts.URL, "http://")

	refused := []hdr{
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "http://evil.example"},
	}
	for _, h := range refused {
		res := editor.post("/vacancies", vacancyForm("Cross-site"), h...)
		wantStatus(t, strings.Join(h, ": "), res, http.StatusForbidden)
		wantBody(t, strings.Join(h, ": "), res, "Cross-site request refused")
		res = editor.do(http.MethodDelete, "/vacancies/3", nil, h)
		wantStatus(t, "DELETE "+strings.Join(h, ": "), res, http.StatusForbidden)
		res = editor.post("/logout", nil, h...)
		wantStatus(t, "logout "+strings.Join(h, ": "), res, http.StatusForbidden)
	}
	if _, err := ts.store.FindVacancyByID(context.Background(), 3); err != nil {
		t.Errorf("vacancy 3 after a cross-site delete: %v", err)
	}

	allowed := []hdr{
		{"Sec-Fetch-Site", "same-origin", "Origin", "http://" + host},
		{"Origin", "http://" + host},
		nil,
	}
	for i, h := range allowed {
		res := editor.post("/vacancies", vacancyForm("Same-site "+strconv.Itoa(i)), h...)
		wantStatus(t, "same origin "+strings.Join(h, ": "), res, http.StatusSeeOther)
	}
}

// TestHardening checks the health endpoints, the security headers and the
// body limit.
func TestHardening(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	anon, editor := ts.client(t), ts.login(t, "editor")

	wantStatus(t, "healthz", anon.get("/healthz"), http.StatusOK)
	wantStatus(t, "readyz", anon.get("/readyz"), http.StatusOK)

	res := editor.get("/persons/1")
	for name, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "same-origin",
		"Cache-Control":          "private, no-cache",
	} {
		if got := res.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}

	form := vacancyForm("Too big")
	form.Set("description", strings.Repeat("x", serve.MaxBodyBytes))
	res = editor.post("/vacancies", form)
	wantStatus(t, "1 MiB form", res, http.StatusRequestEntityTooLarge)
	wantBody(t, "1 MiB form", res, "Too much data")

	res = editor.do(http.MethodHead, "/persons/1", nil, nil)
	if res.Status != http.StatusOK || res.Body != "" || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("HEAD /persons/1 = %d %q, %d body bytes", res.Status, res.Header.Get("Content-Type"), len(res.Body))
	}

	res = editor.do(http.MethodPut, "/vacancies/1", nil, nil)
	wantStatus(t, "PUT", res, http.StatusMethodNotAllowed)
}
