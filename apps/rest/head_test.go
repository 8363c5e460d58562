package main

import (
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/auth"
)

// TestHead checks that every GET route also answers HEAD, as RFC 9110 asks:
// the same status and headers as GET, without a body. The routes are read
// from the router itself, so a GET route added later is covered too.
func TestHead(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	routes := chi.NewRouter()
	addRoutes(routes, slog.New(slog.DiscardHandler), nil, auth.NewTokens(testSecret, time.Hour))
	var gets []string
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method == http.MethodGet {
			gets = append(gets, route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(gets, "/api/persons/{id}") {
		t.Fatalf("walking the routes found the GET routes %v, without /api/persons/{id}", gets)
	}

	for _, route := range gets {
		t.Run(route, func(t *testing.T) {
			path := strings.ReplaceAll(route, "{id}", "1")
			get := a.do(t, http.MethodGet, path, a.viewer, nil).want(t, http.StatusOK)
			head := a.head(t, path, a.viewer)
			if head.status != get.status || len(head.body) != 0 {
				t.Errorf("HEAD: %d with %d bytes of body, want %d without a body", head.status, len(head.body), get.status)
			}
			for _, name := range []string{"Content-Type", "Content-Length", "ETag"} {
				if got, want := head.header.Get(name), get.header.Get(name); got != want {
					t.Errorf("HEAD %s: %q, GET has %q", name, got, want)
				}
			}
		})
	}

	t.Run("without a token", func(t *testing.T) {
		head := a.head(t, "/api/persons/1", "")
		if head.status != http.StatusUnauthorized || head.header.Get("WWW-Authenticate") == "" || len(head.body) != 0 {
			t.Errorf("HEAD: %d, WWW-Authenticate %q, %d bytes; want 401 with the header and no body",
				head.status, head.header.Get("WWW-Authenticate"), len(head.body))
		}
	})

	t.Run("where only POST is served", func(t *testing.T) {
		head := a.head(t, "/api/login", "")
		if head.status != http.StatusMethodNotAllowed || head.header.Get("Allow") != "POST" {
			t.Errorf("HEAD /api/login: %d, Allow %q; want 405, Allow POST", head.status, head.header.Get("Allow"))
		}
	})
}

// head sends a HEAD request with token (if any). It is not checked against
// the OpenAPI document, which leaves HEAD implied by GET.
func (a *testApp) head(t testing.TB, path, token string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodHead, a.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := a.client.Do(req)
	if err != nil {
		t.Fatalf("HEAD %s: %v", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("HEAD %s: reading the body: %v", path, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: body}
}
