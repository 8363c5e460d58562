package main

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"crudbench/apps/internal/auth"
)

// expiredToken is a token signed with the test secret that expired an hour ago.
func expiredToken(t *testing.T) string {
	t.Helper()
	now := time.Now()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "crudbench", "sub": strconv.Itoa(2), "name": "editor", "role": string(auth.RoleEditor),
		"iat": now.Add(-2 * time.Hour).Unix(), "exp": now.Add(-time.Hour).Unix(),
	}).SignedString(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// Every operation but login needs a session; mutations need the editor role.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	viewer, editor := app.login(t, "viewer"), app.login(t, "editor")
	forged, _, err := auth.NewTokens([]byte("another-secret-0123456789"), time.Hour).Issue(2, "editor", auth.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	users := []struct {
		name  string
		token string
	}{
		{"anonymous", ""},
		{"garbage token", "not.a.token"},
		{"forged token", forged},
		{"expired token", expiredToken(t)},
		{"viewer", viewer},
		{"editor", editor},
	}
	// The mutations send input the store refuses, so an editor who gets
	// through sees BAD_USER_INPUT or NOT_FOUND and nothing changes.
	operations := []struct {
		name     string
		query    string
		mutation bool
	}{
		{"person", `{ person(id: 1) { id } }`, false},
		{"persons", `{ persons(first: 1) { nodes { id } } }`, false},
		{"vacancy", `{ vacancy(id: 1) { id } }`, false},
		{"vacancies", `{ vacancies(first: 1) { nodes { id } } }`, false},
		{"createPerson", `mutation { createPerson(input: {employeeNo: 0, firstName: "", lastName: "x", email: "x", department: "x", hiredOn: "2024-01-01"}) { id } }`, true},
		{"updatePerson", `mutation { updatePerson(id: 999999, version: 1, input: {}) { id } }`, true},
		{"deletePerson", `mutation { deletePerson(id: 999999) }`, true},
		{"createVacancy", `mutation { createVacancy(input: {title: "", department: "x", location: "x", employmentType: CONTRACT, salaryMinCents: 1, salaryMaxCents: 0, opensOn: "2024-01-01"}) { id } }`, true},
		{"updateVacancy", `mutation { updateVacancy(id: 999999, version: 1, input: {}) { id } }`, true},
		{"deleteVacancy", `mutation { deleteVacancy(id: 999999) }`, true},
	}
	for _, op := range operations {
		for _, u := range users {
			t.Run(op.name+"/"+u.name, func(t *testing.T) {
				resp := app.post(t, u.token, op.query, nil)
				var want []string
				switch {
				case u.token == "" || u.name != "viewer" && u.name != "editor":
					want = []string{codeUnauthenticated}
				case op.mutation && u.name == "viewer":
					want = []string{codeForbidden}
				case op.mutation && (op.name == "createPerson" || op.name == "createVacancy"):
					want = []string{codeBadUserInput}
				case op.mutation:
					want = []string{codeNotFound}
				}
				if got := resp.codes(); !slices.Equal(got, want) {
					t.Fatalf("codes %v, want %v (errors %+v)", got, want, resp.Errors)
				}
				if resp.Status != 200 {
					t.Errorf("HTTP %d, want 200", resp.Status)
				}
			})
		}
	}

	t.Run("messages say what to do", func(t *testing.T) {
		for token, want := range map[string]string{
			"":              "log in first",
			"not.a.token":   "not valid",
			expiredToken(t): "expired",
		} {
			e := app.post(t, token, `{ person(id: 1) { id } }`, nil).wantError(t, codeUnauthenticated)
			if !contains(e.Message, want) {
				t.Errorf("message %q, want it to mention %q", e.Message, want)
			}
		}
	})

	t.Run("wrong password", func(t *testing.T) {
		resp := app.post(t, "", loadQuery(t, "login"), map[string]any{"username": "editor", "password": "wrong"})
		resp.wantError(t, codeUnauthenticated)
		if string(resp.Data) != "null" {
			t.Errorf("data = %s, want null", resp.Data)
		}
	})

	t.Run("login ignores a bad token", func(t *testing.T) {
		resp := app.post(t, "not.a.token", loadQuery(t, "login"), map[string]any{"username": "viewer", "password": "viewer"})
		if len(resp.Errors) > 0 {
			t.Errorf("errors %+v", resp.Errors)
		}
	})
}
