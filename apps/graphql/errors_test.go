package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// Bad input is BAD_USER_INPUT with a message per field, whether the store
// refused it or a scalar (ID, Date) could not read it.
func TestBadUserInput(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")
	tests := []struct {
		name   string
		query  string
		vars   map[string]any
		fields []string
	}{
		{"store validation", loadQuery(t, "create_vacancy"), map[string]any{"input": func() map[string]any {
			in := newVacancy()
			in["title"], in["salaryMinCents"], in["salaryMaxCents"], in["closesOn"] = " ", 500, 100, "2020-01-01"
			return in
		}()}, []string{"closesOn", "salaryMaxCents", "title"}},
		{"invalid email", `mutation { createPerson(input: {employeeNo: 5, firstName: "A", lastName: "B", email: "nope", department: "X", hiredOn: "2024-01-01"}) { id } }`, nil, []string{"email"}},
		{"ID argument", `{ person(id: "abc") { id } }`, nil, []string{"id"}},
		{"ID variable", `query ($id: ID!) { vacancy(id: $id) { id } }`, map[string]any{"id": "-4"}, []string{"id"}},
		{"Date in an input object", loadQuery(t, "create_vacancy"), map[string]any{"input": func() map[string]any {
			in := newVacancy()
			in["opensOn"] = "2024-02-30"
			return in
		}()}, []string{"opensOn"}},
		{"Date literal", `mutation { updateVacancy(id: 1, version: 1, input: {opensOn: "yesterday"}) { id } }`, nil, []string{"opensOn"}},
		{"page size", `{ vacancies(first: 5000) { nodes { id } } }`, nil, []string{"first"}},
		{"Int beyond 32 bits", `{ persons(first: 3000000000) { nodes { id } } }`, nil, []string{"first"}},
		{"enum variable in the wrong case", `query ($s: VacancyStatus) { vacancies(status: $s) { nodes { id } } }`, map[string]any{"s": "open"}, []string{"status"}},
		{"enum in an input object", loadQuery(t, "create_vacancy"), map[string]any{"input": func() map[string]any {
			in := newVacancy()
			in["employmentType"] = "full_time"
			return in
		}()}, []string{"employmentType"}},
		// GraphQL's input coercion takes no string for a number, though
		// gqlparser's variable validation lets one through.
		{"string for an Int variable", `query ($f: Int) { persons(first: $f) { nodes { id } } }`, map[string]any{"f": "10"}, []string{"first"}},
		{"string for an Int in an input object", `mutation ($in: PersonInput!) { createPerson(input: $in) { id } }`, map[string]any{"in": map[string]any{
			"employeeNo": "9001", "firstName": "A", "lastName": "B", "email": "a.b@example.org", "department": "X", "hiredOn": "2024-01-01",
		}}, []string{"employeeNo"}},
		{"string for an Int argument variable", `mutation ($v: Int!) { updateVacancy(id: 1, version: $v, input: {title: "T"}) { id } }`, map[string]any{"v": "1"}, []string{"version"}},
		{"string for an Int64 literal", `mutation { createVacancy(input: {title: "T", department: "D", location: "L", employmentType: FULL_TIME,
			salaryMinCents: "100", salaryMaxCents: 200, status: OPEN, opensOn: "2026-01-01"}) { id } }`, nil, []string{"salaryMinCents"}},
		{"string for an Int64 variable", loadQuery(t, "create_vacancy"), map[string]any{"input": func() map[string]any {
			in := newVacancy()
			in["salaryMinCents"] = "100"
			return in
		}()}, []string{"salaryMinCents"}},
		{"fraction for an Int64", loadQuery(t, "create_vacancy"), map[string]any{"input": func() map[string]any {
			in := newVacancy()
			in["salaryMaxCents"] = 100.5
			return in
		}()}, []string{"salaryMaxCents"}},
	}
	before := app.post(t, token, `{ persons(first: 1000) { nodes { id version } } vacancies(first: 1000) { nodes { id version } } }`, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := app.post(t, token, tt.query, tt.vars)
			e := resp.wantError(t, codeBadUserInput)
			var got []string
			for f, msg := range e.Extensions.Fields {
				if msg == "" {
					t.Errorf("field %s has no message", f)
				}
				got = append(got, f)
			}
			if fmt.Sprint(sorted(got)) != fmt.Sprint(tt.fields) {
				t.Errorf("fields %v, want %v (error %+v)", e.Extensions.Fields, tt.fields, e)
			}
			if resp.Status != 200 {
				t.Errorf("HTTP %d, want 200", resp.Status)
			}
		})
	}
	after := app.post(t, token, `{ persons(first: 1000) { nodes { id version } } vacancies(first: 1000) { nodes { id version } } }`, nil)
	if string(after.Data) != string(before.Data) {
		t.Error("refused input changed the data")
	}
}

// A value the schema itself refuses (an unknown enum value, a missing
// required field) is a request error: gqlgen's GRAPHQL_VALIDATION_FAILED, no
// data, nothing runs; HTTP 200 with application/json and 400 with
// application/graphql-response+json, as the GraphQL-over-HTTP spec has it.
func TestSchemaViolations(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")
	for _, tt := range []struct {
		query string
		vars  map[string]any
	}{
		{`{ vacancies(status: BOGUS) { nodes { id } } }`, nil},
		{`query ($s: VacancyStatus) { vacancies(status: $s) { nodes { id } } }`, map[string]any{"s": "NOPE"}},
		{loadQuery(t, "create_vacancy"), map[string]any{"input": map[string]any{"title": "only a title"}}},
		{`{ person(id: 1) { nosuchfield } }`, nil},
	} {
		for accept, status := range map[string]int{
			"application/json":                  http.StatusOK,
			"application/graphql-response+json": http.StatusBadRequest,
		} {
			resp := app.postAccepting(t, accept, token, tt.query, tt.vars)
			if resp.Status != status || len(resp.Errors) == 0 ||
				resp.Errors[0].Extensions.Code != "GRAPHQL_VALIDATION_FAILED" || string(resp.Data) != "" && string(resp.Data) != "null" {
				t.Errorf("%s (%s): HTTP %d data %s errors %+v", tt.query, accept, resp.Status, resp.Data, resp.Errors)
			}
		}
	}
}

// Operations in one document are validated as the GraphQL spec has it:
// an anonymous operation must be the only one (Lone Anonymous Operation),
// one error for each anonymous operation, and named ones unique (Operation
// Name Uniqueness, which leaves anonymous operations out: gqlparser's
// own rule added a third error for two of them, which graphql-js does not).
func TestOperationsOfOneDocument(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")
	const lone = "This anonymous operation must be the only defined operation."
	for _, tt := range []struct {
		query    string
		messages []string
	}{
		{`{ a: __typename } { b: __typename }`, []string{lone, lone}},
		{`{ a: __typename } query B { b: __typename }`, []string{lone}},
		{`query A { a: __typename } query A { b: __typename }`, []string{`There can be only one operation named "A".`}},
	} {
		for accept, status := range map[string]int{
			"application/json":                  http.StatusOK,
			"application/graphql-response+json": http.StatusBadRequest,
		} {
			resp := app.postAccepting(t, accept, token, tt.query, nil)
			var messages []string
			for _, e := range resp.Errors {
				messages = append(messages, e.Message)
				if e.Extensions.Code != "GRAPHQL_VALIDATION_FAILED" {
					t.Errorf("%s (%s): error %q coded %s, want GRAPHQL_VALIDATION_FAILED", tt.query, accept, e.Message, e.Extensions.Code)
				}
			}
			if resp.Status != status || !slices.Equal(messages, tt.messages) || string(resp.Data) != "" && string(resp.Data) != "null" {
				t.Errorf("%s (%s): HTTP %d data %s messages %q, want HTTP %d messages %q", tt.query, accept, resp.Status, resp.Data, messages, status, tt.messages)
			}
		}
	}
}

// A panic in a resolver is logged with its stack and answered as INTERNAL
// with no detail. The panic here is real: the app is wired without its
// loaders middleware.
func TestInternalErrorFromPanic(t *testing.T) {
	t.Parallel()
	app := startApp(t, appConfig{handler: func(logger *slog.Logger, store *db.Store, tokens *auth.Tokens) http.Handler {
		gql := handleGraphQL(logger, store, tokens, Options{})
		return tokens.Bearer(gql)
	}})
	token, _, err := auth.NewTokens(testSecret, 60e9).Issue(1, "viewer", auth.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	resp := app.post(t, token, `{ vacancy(id: 1) { title } }`, nil)
	e := resp.wantError(t, codeInternal)
	if e.Message != "internal error" || resp.Status != 200 || string(resp.Data) != `{"vacancy":null}` {
		t.Errorf("HTTP %d data %s error %+v", resp.Status, resp.Data, e)
	}
	if logs := app.logs.String(); !contains(logs, `"msg":"panic"`, "no loaders in context", `"stack"`) {
		t.Errorf("the panic is not logged with its stack:\n%s", logs)
	}
}

// A panic outside the resolvers (in a middleware) is a 500 in the GraphQL
// shape, in the media type the request accepts, and its stack is logged.
func TestPanicOutsideResolvers(t *testing.T) {
	t.Parallel()
	app := startApp(t, appConfig{handler: func(logger *slog.Logger, _ *db.Store, _ *auth.Tokens) http.Handler {
		return serve.Recover(logger, writePanic, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			panic("middleware bug")
		}))
	}})
	for _, accept := range []string{"application/json", "application/graphql-response+json"} {
		req, err := http.NewRequest(http.MethodPost, app.URL+"/graphql", strings.NewReader(`{"query": "{ __typename }"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		resp := send(t, req)
		e := resp.wantError(t, codeInternal)
		if resp.Status != http.StatusInternalServerError || resp.Header.Get("Content-Type") != accept || e.Message != "internal error" {
			t.Errorf("Accept %s: HTTP %d %q, error %+v", accept, resp.Status, resp.Header.Get("Content-Type"), e)
		}
	}
	if logs := app.logs.String(); !contains(logs, "middleware bug") {
		t.Errorf("the panic is not logged:\n%s", logs)
	}
}

// Errors the app does not know become INTERNAL without their text; the data
// layer's internal errors too, and their cause goes to the log.
func TestUnknownErrorsHideDetails(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	present := presentError(slog.New(slog.NewJSONHandler(&logs, nil)))
	for _, err := range []error{
		errors.New("pq: password authentication failed for user secret"),
		&db.Error{Code: db.EINTERNAL, Message: "insert failed", Err: errors.New("duplicate key secret_idx")},
	} {
		got := present(context.Background(), err)
		if got.Message != "internal error" || got.Extensions["code"] != codeInternal || strings.Contains(fmt.Sprint(got), "secret") {
			t.Errorf("%v presented as %+v", err, got)
		}
	}
	if !strings.Contains(logs.String(), "secret_idx") {
		t.Errorf("the cause is not logged: %s", logs.String())
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
