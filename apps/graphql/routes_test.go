package main

import (
	"encoding/json"
	"net/http"
	"testing"
)

// Every route answers the methods it serves, HEAD wherever GET is, and 405
// with Allow for the others; /graphql takes every method to its transport,
// also one the router does not know, and answers a refusal in the GraphQL
// shape.
func TestRoutes(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	for _, tt := range []struct {
		name, method, path string
		status             int
		allow, code        string // code: the GraphQL error code, if any
		empty              bool   // no body
	}{
		{"HEAD of a probe", http.MethodHead, "/healthz", http.StatusOK, "", "", true},
		{"HEAD of a query", http.MethodHead, "/graphql?query=%7B__typename%7D", http.StatusOK, "", "", true},
		{"POST to a probe", http.MethodPost, "/healthz", http.StatusMethodNotAllowed, "GET, HEAD", "", false},
		{"PUT to GraphiQL", http.MethodPut, "/", http.StatusMethodNotAllowed, "GET, HEAD", "", false},
		{"unknown method on a probe", "PROPFIND", "/readyz", http.StatusMethodNotAllowed, "GET, HEAD", "", false},
		{"unknown method on /graphql", "PROPFIND", "/graphql", http.StatusMethodNotAllowed, "GET, HEAD, POST, OPTIONS", codeMethodNotAllowed, false},
		{"unknown method on no route", "PROPFIND", "/nowhere", http.StatusNotFound, "", "", false},
		{"no route", http.MethodGet, "/nowhere", http.StatusNotFound, "", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, app.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, body := do(t, req)
			if resp.StatusCode != tt.status || resp.Header.Get("Allow") != tt.allow || (len(body) == 0) != tt.empty {
				t.Fatalf("HTTP %d, Allow %q, body %q; want %d, Allow %q, empty body %t",
					resp.StatusCode, resp.Header.Get("Allow"), body, tt.status, tt.allow, tt.empty)
			}
			if tt.code == "" {
				return
			}
			var gql gqlResponse
			if err := json.Unmarshal(body, &gql); err != nil || len(gql.Errors) != 1 || gql.Errors[0].Extensions.Code != tt.code {
				t.Errorf("body %s, want one %s error", body, tt.code)
			}
		})
	}
}
