package main

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// pathID reads the {id} of a single-resource path: a positive whole number,
// else 400.
func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, httpproblem.BadRequest("the id in the path must be a positive whole number", map[string]string{"id": "must be a positive whole number"})
	}
	return id, nil
}

// limitParam reads the page size from the limit query parameter; the rule
// is the data's (db.ParsePageLimit), and respondError answers a bad size 400.
// Not asked for, it is 0: the Store's default.
func limitParam(r *http.Request) (int, error) {
	return db.ParsePageLimit("limit", r.URL.Query().Get("limit"))
}

// page is one page of a list. NextCursor is the "after" of the next page,
// null on the last one.
type page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func newPage[T any](items []T, next string) page[T] {
	p := page[T]{Items: items}
	if p.Items == nil {
		p.Items = []T{}
	}
	if next != "" {
		p.NextCursor = &next
	}
	return p
}
