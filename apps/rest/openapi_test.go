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
	"crudbench/db"
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

// TestOpenAPILimits checks that the document states the Store's field
// limits (db.Max…) on every request schema and on the person search, so
// that a client validating against the document refuses exactly what the
// app would.
func TestOpenAPILimits(t *testing.T) {
	t.Parallel()
	doc, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	maxLength := map[string]int{
		"firstName":   db.MaxNameLen,
		"lastName":    db.MaxNameLen,
		"email":       db.MaxEmailLen,
		"phone":       db.MaxPhoneLen,
		"department":  db.MaxNameLen,
		"location":    db.MaxNameLen,
		"title":       db.MaxTitleLen,
		"description": db.MaxDescriptionLen,
	}
	maximum := map[string]float64{
		"salaryMinCents": db.MaxSalaryCents,
		"salaryMaxCents": db.MaxSalaryCents,
	}
	for _, name := range []string{"PersonInput", "PersonPatch", "VacancyInput", "VacancyPatch"} {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			t.Errorf("no schema %s", name)
			continue
		}
		for prop, p := range ref.Value.Properties {
			if want, ok := maxLength[prop]; ok && (p.Value.MaxLength == nil || *p.Value.MaxLength != uint64(want)) {
				t.Errorf("%s.%s: maxLength %v, want %d", name, prop, deref(p.Value.MaxLength), want)
			}
			if want, ok := maximum[prop]; ok && (p.Value.Max == nil || *p.Value.Max != want) {
				t.Errorf("%s.%s: maximum %v, want %.0f", name, prop, deref(p.Value.Max), want)
			}
		}
	}
	q := doc.Paths.Find("/api/persons").Get.Parameters.GetByInAndName("query", "q")
	if q == nil || q.Schema.Value.MaxLength == nil || *q.Schema.Value.MaxLength != db.MaxSearchLen {
		t.Errorf("GET /api/persons?q: want maxLength %d", db.MaxSearchLen)
	}
}

// deref shows an optional limit of the document: its value, or nil.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
