package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"crudbench/apps/internal/config"
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
		resp.wantError(t, codeMethodNotAllowed)
		if resp.Status != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("HTTP %d, Allow %q", resp.Status, resp.Header.Get("Allow"))
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
			{"*/*", "application/json", http.StatusOK},
			{"application/graphql-response+json", "application/graphql-response+json", http.StatusBadRequest},
			{"application/graphql-response+json, application/json;q=0.9", "application/graphql-response+json", http.StatusBadRequest},
		} {
			resp := get(t, url.Values{"query": {`{ vacancy(id: 1) { id } }`}}, tt.accept)
			if got := resp.Header.Get("Content-Type"); got != tt.want || resp.Status != 200 {
				t.Errorf("Accept %q: HTTP %d %q, want 200 %q", tt.accept, resp.Status, got, tt.want)
			}
			resp = get(t, url.Values{"query": {`{ vacancy(id: 1) { nosuchfield } }`}}, tt.accept)
			if resp.Status != tt.invalid || resp.Header.Get("Content-Type") != tt.want {
				t.Errorf("Accept %q, invalid query: HTTP %d %q, want %d %q", tt.accept, resp.Status, resp.Header.Get("Content-Type"), tt.invalid, tt.want)
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
		if resp.StatusCode != 200 || resp.Header.Get("Allow") != "GET, HEAD, POST, OPTIONS" {
			t.Errorf("HTTP %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
		}
	})

	t.Run("HEAD answers like GET without a body", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodHead, app.URL+"/graphql?"+url.Values{"query": {`{ __typename }`}}.Encode(), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || len(raw) != 0 {
			t.Errorf("HTTP %d %q with %d bytes of body", resp.StatusCode, resp.Header.Get("Content-Type"), len(raw))
		}
	})

	// Whatever the transport refuses is a GraphQL response with a code, in
	// the media type the request accepts, and never echoes the body.
	t.Run("refusals", func(t *testing.T) {
		const allowed = "GET, HEAD, POST, OPTIONS"
		query := `{"query": "{ __typename }"}`
		for _, tt := range []struct {
			name, method, target, contentType, body string
			status                                  int
			code, allow                             string
		}{
			{"text/plain", "POST", "/graphql", "text/plain", query, http.StatusUnsupportedMediaType, codeUnsupportedMediaType, ""},
			{"form", "POST", "/graphql", "application/x-www-form-urlencoded", "query=%7B+__typename+%7D", http.StatusUnsupportedMediaType, codeUnsupportedMediaType, ""},
			{"multipart", "POST", "/graphql", "multipart/form-data; boundary=X", "--X\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n" + query + "\r\n--X--\r\n", http.StatusUnsupportedMediaType, codeUnsupportedMediaType, ""},
			{"application/graphql", "POST", "/graphql", "application/graphql", "{ __typename }", http.StatusUnsupportedMediaType, codeUnsupportedMediaType, ""},
			{"no Content-Type", "POST", "/graphql", "", query, http.StatusUnsupportedMediaType, codeUnsupportedMediaType, ""},
			{"PUT", "PUT", "/graphql", "application/json", query, http.StatusMethodNotAllowed, codeMethodNotAllowed, allowed},
			{"DELETE", "DELETE", "/graphql", "", "", http.StatusMethodNotAllowed, codeMethodNotAllowed, allowed},
			{"PATCH", "PATCH", "/graphql", "application/json", query, http.StatusMethodNotAllowed, codeMethodNotAllowed, allowed},
			{"mutation over GET", "GET", "/graphql?query=" + url.QueryEscape(`mutation { deleteVacancy(id: 6) }`), "", "", http.StatusMethodNotAllowed, codeMethodNotAllowed, "POST"},
			{"undecodable variables over GET", "GET", "/graphql?query=%7B+__typename+%7D&variables=%7B%22id%22%3A", "", "", http.StatusBadRequest, codeBadRequest, ""},
			{"variables not an object over GET", "GET", "/graphql?query=%7B+__typename+%7D&variables=%5B1%5D", "", "", http.StatusBadRequest, codeBadRequest, ""},
			{"bad query string", "GET", "/graphql?query=%zz", "", "", http.StatusBadRequest, codeBadRequest, ""},
			{"null", "POST", "/graphql", "application/json", "null", http.StatusBadRequest, codeBadRequest, ""},
			{"array", "POST", "/graphql", "application/json", `["SECRET-BODY"]`, http.StatusBadRequest, codeBadRequest, ""},
			{"string", "POST", "/graphql", "application/json", `"SECRET-BODY"`, http.StatusBadRequest, codeBadRequest, ""},
			{"empty body", "POST", "/graphql", "application/json", "", http.StatusBadRequest, codeBadRequest, ""},
			{"broken JSON", "POST", "/graphql", "application/json", `{"query": "{ vacancy(id: 1) { id } }", SECRET-BODY`, http.StatusBadRequest, codeBadRequest, ""},
			{"wrong member type", "POST", "/graphql", "application/json", `{"query": ["SECRET-BODY"]}`, http.StatusBadRequest, codeBadRequest, ""},
			{"trailing garbage", "POST", "/graphql", "application/json", `{"query": "mutation { deleteVacancy(id: 6) }"} SECRET-BODY`, http.StatusBadRequest, codeBadRequest, ""},
			{"two objects", "POST", "/graphql", "application/json", `{"query": "mutation { deleteVacancy(id: 6) }"} {}`, http.StatusBadRequest, codeBadRequest, ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				for _, accept := range []string{"", "application/graphql-response+json"} {
					req, err := http.NewRequest(tt.method, app.URL+tt.target, strings.NewReader(tt.body))
					if err != nil {
						t.Fatal(err)
					}
					req.Header.Set("Authorization", "Bearer "+token)
					if tt.contentType != "" {
						req.Header.Set("Content-Type", tt.contentType)
					}
					want := "application/json"
					if accept != "" {
						req.Header.Set("Accept", accept)
						want = accept
					}
					resp := send(t, req)
					e := resp.wantError(t, tt.code)
					if resp.Status != tt.status || resp.Header.Get("Content-Type") != want || resp.Header.Get("Allow") != tt.allow ||
						e.Message == "" || strings.Contains(e.Message, "SECRET-BODY") || resp.Data != nil {
						t.Errorf("Accept %q: HTTP %d %q, Allow %q, data %s, error %+v; want %d %q, Allow %q, no data",
							accept, resp.Status, resp.Header.Get("Content-Type"), resp.Header.Get("Allow"), resp.Data, e, tt.status, want, tt.allow)
					}
				}
			})
		}
		app.post(t, token, `{ vacancy(id: 6) { id } }`, nil).decode(t, new(any)) // no refused mutation ran
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

// GRAPHQL_INTROSPECTION and -graphql-introspection are read like every
// other setting: on by default, the flag winning over the variable, and a
// value that is not true or false refused with the name it came from.
func TestIntrospectionSetting(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, true},
		{"true", nil, true},
		{"1", nil, true},
		{"false", nil, false},
		{"0", nil, false},
		{"false", []string{"-graphql-introspection=true"}, true},
		{"", []string{"-graphql-introspection=false"}, false},
	} {
		on := !tt.want
		getenv := func(k string) string {
			if k == "GRAPHQL_INTROSPECTION" {
				return tt.env
			}
			return ""
		}
		if _, err := config.Load("graphql", tt.args, getenv, defaultAddr, io.Discard, introspectionSetting(&on)); err != nil || on != tt.want {
			t.Errorf("GRAPHQL_INTROSPECTION=%q %q: %v, %v; want %v", tt.env, tt.args, on, err, tt.want)
		}
	}
	var on bool
	maybe := func(k string) string {
		if k == "GRAPHQL_INTROSPECTION" {
			return "maybe"
		}
		return ""
	}
	_, err := config.Load("graphql", nil, maybe, defaultAddr, io.Discard, introspectionSetting(&on))
	if err == nil || !strings.Contains(err.Error(), "GRAPHQL_INTROSPECTION") {
		t.Errorf("GRAPHQL_INTROSPECTION=maybe: error %v, want one naming it", err)
	}
}
