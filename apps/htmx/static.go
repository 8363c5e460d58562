package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"crudbench/resources"
)

// staticFiles serves the embedded static files from memory. Pages link them
// with a content hash in the query (?v=…), so browsers may cache them for a
// year and still never run an old script against a new page.
type staticFiles struct {
	files map[string]staticFile // name relative to static/ -> file
}

type staticFile struct {
	content []byte
	hash    string // first 16 hex digits of the SHA-256
}

// loadStatic reads every file under resources.Static.
func loadStatic() (*staticFiles, error) {
	sub, err := fs.Sub(resources.Static, "static")
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	s := &staticFiles{files: map[string]staticFile{}}
	err = fs.WalkDir(sub, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		s.files[name] = staticFile{content: b, hash: hex.EncodeToString(sum[:])[:16]}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	return s, nil
}

// url is the template function "static": the versioned address of a file.
// An unknown name is a template error, caught by the page tests.
func (s *staticFiles) url(name string) (string, error) {
	f, ok := s.files[name]
	if !ok {
		return "", fmt.Errorf("static: no file %q", name)
	}
	return "/static/" + name + "?v=" + f.hash, nil
}

// handler serves GET /static/{name}. A request carrying the current hash gets
// an immutable one-year lifetime; without it (a hand-typed address) the file
// is cached briefly and revalidated by its ETag. An unknown name is answered
// by notFound, the site's own 404 page.
func (s *staticFiles) handler(notFound http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/static/")
		f, ok := s.files[name]
		if !ok {
			notFound(w, r)
			return
		}
		h := w.Header()
		if r.URL.Query().Get("v") == f.hash {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "public, max-age=300")
		}
		h.Set("ETag", `"`+f.hash+`"`)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.content))
	})
}
