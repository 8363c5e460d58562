package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// GraphQL over HTTP as the spec (graphql.github.io/graphql-over-http) has it.
func TestTransport(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	token := app.login(t, "editor")

	get := func(t *testing.T, params url.Values, accept string) *gqlResponse {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, app.URL+"/graphql?"+params.Encode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		return send(t, req)
	}

	t.Run("GET runs queries", func(t *testing.T) {
		resp := get(t, url.Values{
			"query":     {`query One($id: ID!) { vacancy(id: $id) { id } }`},
			"variables": {`{"id": "4"}`},
		}, "")
		var data struct{ Vacancy struct{ ID string } }
		resp.decode(t, &data)
		if resp.Status != 200 || data.Vacancy.ID != "4" {
			t.Errorf("HTTP %d, data %s", resp.Status, resp.Data)
		}
	})

	t.Run("GET refuses mutations with 405", func(t *testing.T) {
		resp := get(t, url.Values{"query": {`mutation { deleteVacancy(id: 5) }`}}, "")
		if resp.Status != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" || len(resp.Errors) != 1 {
			t.Errorf("HTTP %d, Allow %q, errors %+v", resp.Status, resp.Header.Get("Allow"), resp.Errors)
		}
		app.post(t, token, `{ vacancy(id: 5) { id } }`, nil).decode(t, new(any)) // still there
	})

	t.Run("media types", func(t *testing.T) {
		for _, tt := range []struct {
			accept, want string
			invalid      int // status of a request that fails validation
		}{
			{"", "application/json", http.StatusOK},
			{"application/json", "application/json", http.StatusOK},
			{"application/graphql-response+json", "application/graphql-response+json", http.StatusBadRequest},
			{"application/graphql-response+json, application/json;q=0.9", "application/graphql-response+json", http.StatusBadRequest},
		} {
			resp := get(t, url.Values{"query": {`{ vacancy(id: 1) { id } }`}}, tt.accept)
			if got := resp.Header.Get("Content-Type"); got != tt.want || resp.Status != 200 {
				t.Errorf("Accept %q: HTTP %d %q, want 200 %q", tt.accept, resp.Status, got, tt.want)
			}
			resp = get(t, url.Values{"query": {`{ vacancy(id: 1) { nosuchfield } }`}}, tt.accept)
			if resp.Status != tt.invalid {
				t.Errorf("Accept %q, invalid query: HTTP %d, want %d", tt.accept, resp.Status, tt.invalid)
			}
		}
	})

	t.Run("OPTIONS lists the methods", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodOptions, app.URL+"/graphql", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Allow"), "POST") {
			t.Errorf("HTTP %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
		}
	})

	t.Run("other methods are 405", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPut, app.URL+"/graphql", strings.NewReader(`{}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("PUT: HTTP %d, want 405", resp.StatusCode)
		}
	})

	t.Run("bad bodies are 400 without an echo", func(t *testing.T) {
		for _, tt := range []struct{ contentType, body string }{
			{"application/json", `{"query": "{ vacancy(id: 1) { id } }", SECRET-BODY`},
			{"application/json", `["SECRET-BODY"]`},
			{"text/plain", `{"query": "{ __typename }"}`},
		} {
			req, _ := http.NewRequest(http.MethodPost, app.URL+"/graphql", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.contentType)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var body gqlResponse
			if resp.StatusCode != http.StatusBadRequest || json.Unmarshal(raw, &body) != nil || len(body.Errors) == 0 ||
				strings.Contains(string(raw), "SECRET-BODY") {
				t.Errorf("%s %s: HTTP %d %s", tt.contentType, tt.body, resp.StatusCode, raw)
			}
		}
	})
}

func TestIntrospectionSwitch(t *testing.T) {
	t.Parallel()
	query := `{ __schema { queryType { name } } }`
	on := startApp(t)
	var data struct {
		Schema struct{ QueryType struct{ Name string } } `json:"__schema"`
	}
	on.post(t, "", query, nil).decode(t, &data)
	if data.Schema.QueryType.Name != "Query" {
		t.Errorf("introspection on: %+v", data)
	}

	off := startApp(t, appConfig{noIntrospect: true})
	for _, q := range []string{query, `{ __type(name: "Person") { name } }`, `{ ...F } fragment F on Query { __schema { types { name } } }`} {
		resp := off.post(t, "", q, nil)
		resp.wantError(t, codeIntrospectionDisabled)
		if resp.Status != 200 || strings.Contains(string(resp.Data), "Query") {
			t.Errorf("introspection off: HTTP %d data %s", resp.Status, resp.Data)
		}
	}
	var typename struct {
		Typename string `json:"__typename"`
	}
	off.post(t, "", `{ __typename }`, nil).decode(t, &typename)
	if typename.Typename != "Query" {
		t.Errorf("__typename with introspection off: %+v", typename)
	}
	if logs := off.logs.String(); strings.Contains(logs, "ERROR") {
		t.Errorf("refused introspection was logged as an error:\n%s", logs)
	}
}

func TestIntrospectionFromEnv(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"": true, "true": true, "1": true, "false": false, "0": false} {
		got, err := introspectionFromEnv(func(string) string { return v })
		if err != nil || got != want {
			t.Errorf("GRAPHQL_INTROSPECTION=%q: %v, %v; want %v", v, got, err, want)
		}
	}
	if _, err := introspectionFromEnv(func(string) string { return "maybe" }); err == nil {
		t.Error("GRAPHQL_INTROSPECTION=maybe: no error")
	}
}
