package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"crudbench/apps/internal/auth"
	"crudbench/db"
	"crudbench/db/seed"
)

func TestLogin(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	res := a.do(t, "POST", "/api/login", "", map[string]string{"username": "editor", "password": seed.DefaultEditorPassword}).want(t, http.StatusOK)
	got := decodeBody[loginResponse](t, res)
	if got.Token == "" || time.Until(got.ExpiresAt) < 30*time.Minute {
		t.Errorf("login answered %+v", got)
	}
	if res.header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", res.header.Get("Cache-Control"))
	}
	// The token works for reads and writes.
	a.do(t, "GET", "/api/persons/1", got.Token, nil).want(t, http.StatusOK)
	a.do(t, "POST", "/api/vacancies", got.Token, vacancyBody()).want(t, http.StatusCreated)

	for _, c := range []struct {
		name, body string
		status     int
	}{
		{"wrong password", `{"username":"editor","password":"wrong"}`, http.StatusUnauthorized},
		{"unknown user", `{"username":"nobody","password":"editor"}`, http.StatusUnauthorized},
		{"empty", `{}`, http.StatusUnauthorized},
		{"SQL", `{"username":"' OR '1'='1","password":"' OR '1'='1"}`, http.StatusUnauthorized},
		{"huge password", `{"username":"editor","password":"` + strings.Repeat("a", 100_000) + `"}`, http.StatusUnauthorized},
		{"unknown field", `{"username":"editor","password":"editor","remember":true}`, http.StatusBadRequest},
		{"wrong type", `{"username":"editor","password":123}`, http.StatusBadRequest},
		{"not JSON", `username=editor&password=editor`, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			a.do(t, "POST", "/api/login", "", c.body).wantProblem(t, c.status)
		})
	}
	t.Run("form post", func(t *testing.T) {
		a.do(t, "POST", "/api/login", "", "username=editor&password=editor", "Content-Type", "application/x-www-form-urlencoded").
			wantProblem(t, http.StatusUnsupportedMediaType)
	})
}

// TestAuthMatrix checks who may do what: anonymous and badly authenticated
// requests are 401, viewers may read but not write (403), editors may both.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	vacancy := decodeBody[db.Vacancy](t, a.do(t, "POST", "/api/vacancies", a.editor, vacancyBody()).want(t, http.StatusCreated))

	ops := []struct {
		name, method, path string
		body               any
		write              bool
		ok                 int
	}{
		{"list persons", "GET", "/api/persons", nil, false, 200},
		{"read person", "GET", "/api/persons/1", nil, false, 200},
		{"list vacancies", "GET", "/api/vacancies?status=open", nil, false, 200},
		{"read vacancy", "GET", fmt.Sprintf("/api/vacancies/%d", vacancy.ID), nil, false, 200},
		{"create person", "POST", "/api/persons", personBody(1), true, 201},
		{"update person", "PATCH", "/api/persons/2", `{"version":1,"phone":"123"}`, true, 200},
		{"delete person", "DELETE", "/api/persons/3", nil, true, 204},
		{"create vacancy", "POST", "/api/vacancies", vacancyBody(), true, 201},
		{"update vacancy", "PATCH", fmt.Sprintf("/api/vacancies/%d", vacancy.ID), `{"version":1,"title":"T"}`, true, 200},
		{"delete vacancy", "DELETE", fmt.Sprintf("/api/vacancies/%d", vacancy.ID), nil, true, 204},
	}

	other := auth.NewTokens([]byte("some-other-secret-0123456789"), time.Hour)
	bad := map[string]string{
		"anonymous":       "",
		"forged":          issue(t, other, 2, "editor", auth.RoleEditor),
		"expired":         expiredToken(t),
		"garbage":         "not.a.token",
		"unsigned (none)": unsignedToken(t),
	}
	for who, token := range bad {
		for _, op := range ops {
			t.Run(who+"/"+op.name, func(t *testing.T) {
				res := a.do(t, op.method, op.path, token, op.body)
				res.wantProblem(t, http.StatusUnauthorized)
				if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("WWW-Authenticate %q, want Bearer", res.header.Get("WWW-Authenticate"))
				}
			})
		}
	}
	t.Run("expired token says so", func(t *testing.T) {
		p := a.do(t, "GET", "/api/persons/1", expiredToken(t), nil).wantProblem(t, http.StatusUnauthorized)
		if !strings.Contains(p.Detail, "expired") {
			t.Errorf("detail %q does not say the token expired", p.Detail)
		}
	})
	t.Run("other schemes", func(t *testing.T) {
		for _, h := range []string{"Basic ZWRpdG9yOmVkaXRvcg==", "Bearer", "Token " + a.editor, a.editor} {
			a.do(t, "GET", "/api/persons/1", "", nil, "Authorization", h).wantProblem(t, http.StatusUnauthorized)
		}
	})

	// Viewers read; their writes are refused before anything happens.
	before := a.snapshot(t)
	for _, op := range ops {
		t.Run("viewer/"+op.name, func(t *testing.T) {
			res := a.do(t, op.method, op.path, a.viewer, op.body)
			if op.write {
				res.wantProblem(t, http.StatusForbidden)
			} else {
				res.want(t, op.ok)
			}
		})
	}
	if after := a.snapshot(t); after != before {
		t.Error("refused requests changed the data")
	}
	// Editors do everything (in this order: the deletes come last per kind).
	for _, op := range ops {
		t.Run("editor/"+op.name, func(t *testing.T) {
			a.do(t, op.method, op.path, a.editor, op.body).want(t, op.ok)
		})
	}
	t.Run("open routes", func(t *testing.T) {
		a.do(t, "GET", "/healthz", "", nil).want(t, http.StatusOK)
		a.do(t, "GET", "/readyz", "", nil).want(t, http.StatusOK)
		a.do(t, "GET", "/openapi.yaml", "", nil).want(t, http.StatusOK)
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

// unsignedToken is a valid-looking editor token with algorithm "none".
func unsignedToken(t *testing.T) string {
	t.Helper()
	claims := jwt.MapClaims{
		"iss": "crudbench", "sub": "2", "name": "editor", "role": "editor",
		"iat": time.Now().Unix(), "exp": time.Now().Add(time.Hour).Unix(),
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
