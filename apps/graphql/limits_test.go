package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"crudbench/apps/internal/serve"
)

// nested returns person(id: 1) with appointments { person { … } } nested
// levels times: a query as deep as you like, through the back reference.
func nested(levels int) string {
	var b strings.Builder
	b.WriteString("{ person(id: 1) { ")
	for range levels {
		b.WriteString("appointments { person { ")
	}
	b.WriteString("id")
	for range levels {
		b.WriteString(" } }")
	}
	b.WriteString(" } }")
	return b.String()
}

// allPersonFields is the selection of the bench's read-many query.
const allPersonFields = `nodes { id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt }
	pageInfo { endCursor hasNextPage }`

// Expensive queries are refused before anything runs, with their own code,
// as a request error: no data, HTTP 200 with application/json, 400 with
// application/graphql-response+json.
func TestQueryLimits(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")

	tests := []struct {
		name  string
		query string
		code  string
	}{
		{"depth", nested(5), codeDepthLimit}, // 12 levels
		{"depth through fragments", `query { person(id: 1) { ...A } }
			fragment A on Person { appointments { person { ...B } } }
			fragment B on Person { appointments { person { ...C } } }
			fragment C on Person { appointments { person { appointments { person { appointments { id } } } } } }`, codeDepthLimit},
		{"complexity of a big page", `{ persons(first: 1000) { nodes { id appointments { id stipends { id } } } } }`, codeComplexityLimit},
		// The bench's read-many costs about 16,000; twice that is too much.
		{"complexity of aliases", `{ a: persons(first: 1000) { ` + allPersonFields + ` } b: persons(first: 1000) { ` + allPersonFields + ` } }`, codeComplexityLimit},
		{"query size", "{ vacancies { nodes { id } } }" + strings.Repeat(" ", maxQueryBytes), codeQueryTooLarge},
		{"token count", "{ " + strings.Repeat("a ", maxQueryTokens) + "}", "GRAPHQL_PARSE_FAILED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := app.recordStatements(func() {
				for accept, status := range map[string]int{
					"application/json":                  http.StatusOK,
					"application/graphql-response+json": http.StatusBadRequest,
				} {
					resp := app.postAccepting(t, accept, token, tt.query, nil)
					resp.wantError(t, tt.code)
					if resp.Status != status || len(resp.Data) > 0 && string(resp.Data) != "null" {
						t.Errorf("%s: HTTP %d, data %s; want %d and no data", accept, resp.Status, resp.Data, status)
					}
				}
			})
			if len(ran) != 0 {
				t.Errorf("%d SQL statements ran for a refused query", len(ran))
			}
		})
	}

	t.Run("the bench's queries and introspection pass", func(t *testing.T) {
		for _, name := range []string{"showcase", "open_vacancies", "all_persons", "introspection"} {
			resp := app.post(t, token, loadQuery(t, name), map[string]any{"id": "1"})
			if len(resp.Errors) > 0 || resp.Status != 200 {
				t.Errorf("%s: HTTP %d %+v", name, resp.Status, resp.Errors)
			}
		}
		resp := app.post(t, token, nested(4), nil) // 10 levels: the limit
		if len(resp.Errors) > 0 {
			t.Errorf("10 levels: %+v", resp.Errors)
		}
		resp = app.post(t, token, `{ persons(first: 50) { nodes { id appointments { id stipends { id payer { code } } } } } }`, nil)
		if len(resp.Errors) > 0 {
			t.Errorf("50 persons with stipends: %+v", resp.Errors)
		}
	})
}

// Bodies over 1 MiB are refused with 413, whether announced or streamed.
func TestBodyLimit(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	big := `{"query": "{ vacancies { nodes { id } } }", "variables": {"pad": "` + strings.Repeat("x", serve.MaxBodyBytes) + `"}}`
	for _, chunked := range []bool{false, true} {
		for _, accept := range []string{"application/json", "application/graphql-response+json"} {
			var body io.Reader = strings.NewReader(big)
			if chunked {
				body = io.MultiReader(body) // hides the length: sent chunked
			}
			req, err := http.NewRequest(http.MethodPost, app.URL+"/graphql", body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", accept)
			resp := send(t, req)
			resp.wantError(t, codeRequestTooLarge)
			if resp.Status != http.StatusRequestEntityTooLarge || resp.Header.Get("Content-Type") != accept {
				t.Errorf("chunked %v, Accept %s: HTTP %d %q, want 413 %q", chunked, accept, resp.Status, resp.Header.Get("Content-Type"), accept)
			}
		}
	}

	// Just under the limit is fine.
	ok := `{"query": "{ __typename }", "variables": {"pad": "` + strings.Repeat("x", serve.MaxBodyBytes-100) + `"}}`
	req, _ := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader([]byte(ok)))
	req.Header.Set("Content-Type", "application/json")
	if resp := send(t, req); resp.Status != 200 || len(resp.Errors) > 0 {
		t.Errorf("a body under the limit: HTTP %d %+v", resp.Status, resp.Errors)
	}
}
