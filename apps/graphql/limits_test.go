package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	gqlgencomplexity "github.com/99designs/gqlgen/complexity"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"crudbench/apps/graphql/graph"
	"crudbench/apps/graphql/graph/generated"
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
		// The report's document: under 1 KiB, fragments each spreading the
		// previous one twice, an exponential number of fields; it must be
		// refused before any walk expands it.
		{"doubling spreads", doublingSpreads(1000), codeSelectionLimit},
		{"doubling spreads through fields", nestedDoubling(1000), codeSelectionLimit},
		{"complexity through fragments", `{ ...F1 } fragment F1 on Query { ...F0 ...F0 }
			fragment F0 on Query { a: persons(first: 1000) { ` + allPersonFields + ` } }`, codeComplexityLimit},
		{"operations", repeatN(maxOperations+1, func(i int) string { return fmt.Sprintf("query Q%d { __typename } ", i) }), codeOperationLimit},
		{"fragments", "{ " + repeatN(maxFragments+1, func(i int) string { return fmt.Sprintf("...F%d ", i) }) + "} " +
			repeatN(maxFragments+1, func(i int) string { return fmt.Sprintf("fragment F%d on Query { f%d: __typename } ", i, i) }), codeFragmentLimit},
		{"spreads", "{ vacancies { nodes { " + strings.Repeat("...F ", maxSpreads+1) + "} } } fragment F on Vacancy { id }", codeSpreadLimit},
		{"aliases", "{ " + repeatN(maxAliases+1, func(i int) string { return fmt.Sprintf("a%d: __typename ", i) }) + "}", codeAliasLimit},
		{"directives on a field", "{ __typename" + strings.Repeat(" @include(if: true)", maxDirectives+1) + " }", codeDirectiveLimit},
		{"directives on a spread", "{ ...F" + strings.Repeat(" @skip(if: false)", maxDirectives+1) + " } fragment F on Query { __typename }", codeDirectiveLimit},
		{"selections after expansion", "{ vacancies { nodes { ...F ...F } } } fragment F on Vacancy {" +
			strings.Repeat(" id", maxSelections/2) + " }", codeSelectionLimit},
		{"repeats", "{" + strings.Repeat(" __typename", maxRepeats+1) + " }", codeRepeatLimit},
		{"repeats through fragments", "{ ...A ...B } fragment A on Query {" + strings.Repeat(" __typename", maxRepeats/2+1) +
			" } fragment B on Query {" + strings.Repeat(" __typename", maxRepeats/2) + " }", codeRepeatLimit},
		{"repeats in merged objects", "{ v: vacancies { nodes {" + strings.Repeat(" id", maxRepeats/2+1) + " } } v: vacancies { nodes {" +
			strings.Repeat(" id", maxRepeats/2) + " } } }", codeRepeatLimit},
		{"fragment cycle", "{ ...A } fragment A on Query { ...B } fragment B on Query { __typename ...A }", "GRAPHQL_VALIDATION_FAILED"},
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
		for _, name := range []string{"showcase", "open_vacancies", "all_persons", "slim_persons", "introspection"} {
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
		for name, query := range map[string]string{
			"fragments": "{ " + repeatN(maxFragments, func(i int) string { return fmt.Sprintf("...F%d ", i) }) + "} " +
				repeatN(maxFragments, func(i int) string { return fmt.Sprintf("fragment F%d on Query { f%d: __typename } ", i, i%10) }),
			"aliases":    "{ " + repeatN(maxAliases, func(i int) string { return fmt.Sprintf("a%d: __typename ", i) }) + "}",
			"directives": "{ __typename @include(if: true) @skip(if: false) }",
			"repeats":    "{" + strings.Repeat(" __typename", maxRepeats) + " }",
		} {
			if resp := app.post(t, token, query, nil); len(resp.Errors) > 0 {
				t.Errorf("%s at the limit: %+v", name, resp.Errors)
			}
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

// repeatN joins item(0) … item(n-1).
func repeatN(n int, item func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(item(i))
	}
	return b.String()
}

// Every hostile shape, at every size up to the query limit, is refused (by
// a limit, the parser or the validator) without running anything. How long
// that takes is BenchmarkHostileDocuments' business.
func TestHostileDocumentsRefused(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "viewer")
	for _, shape := range hostileShapes {
		t.Run(shape.name, func(t *testing.T) {
			for _, size := range []int{1 << 10, 4 << 10, maxQueryBytes} {
				var resp *gqlResponse
				ran := app.recordStatements(func() { resp = app.post(t, token, shape.write(size), nil) })
				if resp.Status != http.StatusOK || len(resp.Errors) == 0 || len(resp.Data) > 0 && string(resp.Data) != "null" || len(ran) > 0 {
					t.Errorf("%d bytes: HTTP %d, data %.100s, %d statements, errors %.300v", size, resp.Status, resp.Data, len(ran), resp.Errors)
				}
			}
		})
	}
}

// A request whose deadline passes before its document has been looked at
// is answered like an outage, 503 UNAVAILABLE with Retry-After, and the
// analysis stops there.
func TestQueryLimitsPastDeadline(t *testing.T) {
	t.Parallel()
	app := startApp(t, appConfig{timeout: time.Nanosecond})
	resp := app.post(t, "", doublingSpreads(1000), nil)
	resp.wantError(t, codeUnavailable)
	if resp.Status != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("HTTP %d, Retry-After %q; want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	doc, err := parser.ParseQuery(&ast.Source{Input: atTheLimits(maxQueryBytes)})
	if err != nil {
		t.Fatal(err)
	}
	if refusal := checkDocument(ctx, doc); refusal == nil || refusal.Extensions["code"] != codeUnavailable {
		t.Errorf("a cancelled request's document: %v, want UNAVAILABLE", refusal)
	}
}

// The cost the app computes, each fragment once, is gqlgen's complexity
// estimate (which walks a fragment again at every spread) for the bench's
// queries, introspection and documents with fragments, so that limits and
// weights mean what they meant.
func TestCostIsGqlgensComplexity(t *testing.T) {
	t.Parallel()
	es := generated.NewExecutableSchema(generated.Config{
		Resolvers:  &graph.Resolver{},
		Directives: generated.DirectiveRoot{Auth: requireSession, Editor: requireEditor},
		Complexity: complexity(),
	})
	docs := map[string]string{
		"fragments": "{ ...F1 } fragment F1 on Query { ...F0 ...F0 v: vacancies(first: 7) { nodes { ...V } } } fragment F0 on Query { p: persons(first: 3) { nodes { ...P } } } fragment P on Person { id appointments { stipends { payer { id } } ... on Appointment { fundings { percent } } } } fragment V on Vacancy { id title }",
		"doubling spreads": "{ person(id: 1) { ...F9 } } fragment F0 on Person { id appointments { id } } " +
			repeatN(9, func(i int) string { return fmt.Sprintf("fragment F%d on Person { ...F%d ...F%d } ", i+1, i, i) }),
	}
	for _, name := range []string{"showcase", "open_vacancies", "all_persons", "introspection", "create_vacancy", "login"} {
		docs[name] = loadQuery(t, name)
	}
	for name, query := range docs {
		doc, errs := gqlparser.LoadQuery(es.Schema(), query)
		if errs != nil {
			t.Fatalf("%s: %v", name, errs)
		}
		op := doc.Operations[0]
		vars, err := validator.VariableValues(es.Schema(), op, map[string]any{"id": "1", "username": "u", "password": "p",
			"input": map[string]any{"title": "t", "department": "d", "location": "l", "employmentType": "FULL_TIME",
				"salaryMinCents": 1, "salaryMaxCents": 2, "status": "DRAFT", "opensOn": "2026-01-01", "description": ""}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, got, refusal := measure(t.Context(), es, op, vars)
		if want := gqlgencomplexity.Calculate(t.Context(), es, op, vars); refusal != nil || got != want {
			t.Errorf("%s: cost %d (%v), gqlgen's complexity %d", name, got, refusal, want)
		}
	}
}
