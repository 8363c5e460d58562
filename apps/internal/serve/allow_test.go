package serve_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"crudbench/apps/internal/serve"
)

// TestMethodNotAllowed checks that the 405 names in Allow what the router
// serves at the path (HEAD after GET, through a mounted sub-router and an
// escaped path too) and that a method no route knows at a path no method
// serves is the 404 it is.
func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	r := chi.NewRouter()
	r.Use(middleware.GetHead)
	ok := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	r.Method(http.MethodGet, "/items/{id}", ok)
	r.Method(http.MethodDelete, "/items/{id}", ok)
	r.Route("/api", func(r chi.Router) {
		r.Method(http.MethodPost, "/login", ok)
	})
	r.MethodNotAllowed(serve.MethodNotAllowed(
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) },
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) },
	))
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)

	for _, tt := range []struct {
		name, method, path string
		status             int
		allow              string
	}{
		{"wrong method", http.MethodPut, "/items/4", http.StatusMethodNotAllowed, "GET, HEAD, DELETE"},
		{"escaped path", http.MethodPost, "/items/a%2Fb", http.StatusMethodNotAllowed, "GET, HEAD, DELETE"},
		{"sub-router", http.MethodGet, "/api/login", http.StatusMethodNotAllowed, "POST"},
		{"HEAD where only POST", http.MethodHead, "/api/login", http.StatusMethodNotAllowed, "POST"},
		{"unknown method", "PROPFIND", "/items/4", http.StatusMethodNotAllowed, "GET, HEAD, DELETE"},
		{"unknown method, no route", "PROPFIND", "/nowhere", http.StatusNotFound, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || resp.Header.Get("Allow") != tt.allow {
				t.Errorf("HTTP %d, Allow %q; want %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"), tt.status, tt.allow)
			}
		})
	}
}
