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
	"crudbench/resources"
)

// TestOpenAPIDocument checks that the document is valid OpenAPI 3.1, that
// it describes exactly the routes the app serves, and that the app serves it.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Errorf("the document is OpenAPI %s, want 3.1", doc.OpenAPI)
	}

	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, method+" "+path)
		}
	}
	mux := chi.NewRouter()
	addRoutes(mux, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, auth.NewTokens(testSecret, time.Hour))
	var served []string
	err = chi.Walk(mux, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		served = append(served, method+" "+strings.TrimSuffix(route, "/"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Errorf("routes served and documented differ:\nserved:     %q\ndocumented: %q", served, documented)
	}

	t.Run("served", func(t *testing.T) {
		a := newApp(t)
		res := a.do(t, "GET", "/openapi.yaml", "", nil).want(t, http.StatusOK)
		if string(res.body) != string(resources.OpenAPI) {
			t.Error("GET /openapi.yaml does not serve the embedded document")
		}
	})
}
