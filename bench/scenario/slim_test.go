package scenario_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"crudbench/bench/scenario"
	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

// slimServer answers read-slim for kind as a candidate written from the
// contract would, from the store: the GraphQL SlimPersons query, or the
// site's fragment of <option> items. wrong, when not nil, rewrites the
// persons before they are written, and page wraps the site's fragment in
// a whole document.
func slimServer(t *testing.T, store *db.Store, kind scenario.Kind, wrong func([]map[string]any) []map[string]any, page bool) *httptest.Server {
	t.Helper()
	persons := func(r *http.Request) []map[string]any {
		p, err := store.FindPersons(r.Context(), db.PersonFilter{Limit: scenario.ReadSlimLimit})
		if err != nil {
			t.Error(err)
		}
		out := make([]map[string]any, len(p.Persons))
		for i, x := range p.Persons {
			out[i] = map[string]any{"id": fmt.Sprint(x.ID), "firstName": x.FirstName, "lastName": x.LastName}
		}
		if wrong != nil {
			out = wrong(out)
		}
		return out
	}
	mux := http.NewServeMux()
	switch kind {
	case scenario.KindGraphQL:
		mux.HandleFunc("POST /graphql", func(w http.ResponseWriter, r *http.Request) {
			var req struct{ Query string }
			_ = json.NewDecoder(r.Body).Decode(&req)
			w.Header().Set("Content-Type", "application/json")
			if strings.HasPrefix(req.Query, "mutation Login") {
				_, _ = w.Write([]byte(`{"data":{"login":{"token":"t"}}}`))
				return
			}
			if !strings.Contains(req.Query, "SlimPersons") || !strings.Contains(req.Query, "nodes { id firstName lastName }") {
				t.Errorf("unexpected query %q", req.Query)
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"persons": map[string]any{"nodes": persons(r)}}})
		})
	case scenario.KindSite:
		mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "crudbench_session", Value: "s"})
			http.Redirect(w, r, "/persons", http.StatusSeeOther)
		})
		mux.HandleFunc("GET /persons/options", func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("HX-Request") != "true" {
				t.Error("the fragment was not asked for as htmx asks for it")
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if page {
				_, _ = w.Write([]byte("<!doctype html><html><body><datalist>"))
			}
			for _, p := range persons(r) {
				fmt.Fprintf(w, "<option value=\"%s\">%s, %s</option>\n", p["id"], html.EscapeString(p["lastName"].(string)), html.EscapeString(p["firstName"].(string)))
			}
		})
	}
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// TestValidateReadSlim validates read-slim on GraphQL and site candidates
// attached alone (compared with the dataset): the slim answer must be the
// persons of read-many with exactly their id and names.
func TestValidateReadSlim(t *testing.T) {
	drop := func(ps []map[string]any) []map[string]any { return ps[1:] }
	tests := []struct {
		name  string
		kind  scenario.Kind
		wrong func([]map[string]any) []map[string]any
		page  bool
		want  string
	}{
		{"graphql as the contract says", scenario.KindGraphQL, nil, false, ""},
		{"graphql with a field not asked for", scenario.KindGraphQL, func(ps []map[string]any) []map[string]any {
			ps[0]["email"] = "x@example.com"
			return ps
		}, false, "POST /graphql (SlimPersons): field parity: differs from the dataset: read-slim[0].email: unexpected field"},
		{"graphql with an id as a number", scenario.KindGraphQL, func(ps []map[string]any) []map[string]any {
			ps[0]["id"] = 1
			return ps
		}, false, "read-slim[0].id: 1: a GraphQL ID is written as a string"},
		{"graphql without a person", scenario.KindGraphQL, drop, false, "read-slim: 499 items, want 500"},
		{"site as the contract says", scenario.KindSite, nil, false, ""},
		{"site with a whole page", scenario.KindSite, nil, true, "GET /persons/options?limit=1000: a whole HTML page, want the fragment of <option> items"},
		{"site without a person", scenario.KindSite, drop, false, "the page lists 499 rows (<option value=\"), want 500"},
		{"site with an id changed", scenario.KindSite, func(ps []map[string]any) []map[string]any {
			ps[3]["id"] = "999999"
			return ps
		}, false, "field parity: the page has no row with value="},
	}
	ref, err := scenario.ReferenceFromDataset(seed.Generate(dbtest.Persons))
	if err != nil {
		t.Fatal(err)
	}
	store := dbtest.Store(t, dbtest.Seeded(t), db.Options{MaxConns: 4})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			app, err := scenario.NewApp("candidate", tt.kind, slimServer(t, store, tt.kind, tt.wrong, tt.page).URL)
			if err != nil {
				t.Fatal(err)
			}
			c := scenario.NewClient(10*time.Second, nil)
			s, err := app.Login(ctx, c, "editor", "editor")
			if err != nil {
				t.Fatal(err)
			}
			v := &scenario.Validator{Client: c, Ref: ref}
			err = v.Validate(ctx, s, scenario.ReadSlim)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("validation failed: %v", err)
			case tt.want != "" && err == nil:
				t.Fatal("validation passed, want a failure")
			case err != nil && !strings.Contains(err.Error(), tt.want):
				t.Errorf("validation failed with %q, want %q", err, tt.want)
			}
		})
	}
}

// TestSlimReferenceLearnedFromREST checks that without a reference the
// first REST answer to read-slim (the full list) becomes read-many's
// reference and, projected, read-slim's, so a GraphQL app validated next
// is compared with it.
func TestSlimReferenceLearnedFromREST(t *testing.T) {
	ctx := context.Background()
	store := dbtest.Store(t, dbtest.Seeded(t), db.Options{MaxConns: 4})
	c := scenario.NewClient(10*time.Second, nil)
	v := &scenario.Validator{Client: c}
	for _, k := range []scenario.Kind{scenario.KindREST, scenario.KindGraphQL} {
		var url string
		if k == scenario.KindREST {
			url = restServer(t, store, nil, "").URL
		} else {
			url = slimServer(t, store, k, func(ps []map[string]any) []map[string]any {
				ps[0]["firstName"] = "Nobody"
				return ps
			}, false).URL
		}
		app, err := scenario.NewApp(string(k), k, url)
		if err != nil {
			t.Fatal(err)
		}
		s, err := app.Login(ctx, c, "editor", "editor")
		if err != nil {
			t.Fatal(err)
		}
		err = v.Validate(ctx, s, scenario.ReadSlim)
		if k == scenario.KindREST && err != nil {
			t.Fatalf("rest: %v", err)
		}
		if k == scenario.KindGraphQL && (err == nil || !strings.Contains(err.Error(), `differs from the rest app: read-slim[0].firstName: got "Nobody"`)) {
			t.Errorf("graphql: validation error %v, want a difference from the rest app's read-slim", err)
		}
	}
	if got := v.Ref.Data[scenario.OpReadMany]; got == nil {
		t.Error("the REST answer to read-slim did not become read-many's reference")
	}
}
