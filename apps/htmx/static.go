package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
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
	gzipped []byte // content gzip-compressed at start; nil when not compressed
	ctype   string
	hash    string // first 16 hex digits of the SHA-256
	// The answer headers' values, set at start so that no request builds them.
	etag, gzipETag     string
	length, gzipLength string
}

// compressible are the extensions of the files served gzip-compressed to a
// client that accepts it: the text a production server compresses. The
// SPA's static server (apps/web/server.js) compresses the same ones, with
// the same codec and level, so that the front ends compare fairly.
var compressible = map[string]bool{".html": true, ".js": true, ".css": true, ".svg": true, ".json": true, ".map": true}

// loadStatic reads every file under resources.Static and compresses the
// compressible ones once, so that no request pays for compression.
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
		f := staticFile{content: b, hash: hex.EncodeToString(sum[:])[:16]}
		f.etag, f.length = `"`+f.hash+`"`, strconv.Itoa(len(b))
		// Set here, so that ServeContent never sniffs the type from the
		// gzipped bytes.
		if f.ctype = mime.TypeByExtension(path.Ext(name)); f.ctype == "" {
			f.ctype = http.DetectContentType(b)
		}
		if compressible[path.Ext(name)] {
			gz, err := gzipBytes(b)
			if err != nil {
				return err
			}
			if len(gz) < len(b) {
				f.gzipped = gz
				f.gzipETag, f.gzipLength = `"`+f.hash+`-gzip"`, strconv.Itoa(len(gz))
			}
		}
		s.files[name] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	return s, nil
}

// gzipBytes is b gzip-compressed at the best compression: it runs once per
// file, at start.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
// is cached briefly and revalidated by its ETag. A compressible file goes
// gzip-compressed to a client whose Accept-Encoding allows it, with its own
// ETag, and as it is to any other. An unknown name is answered by notFound,
// the site's own 404 page.
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
		h.Set("Content-Type", f.ctype)
		body, etag, length := f.content, f.etag, f.length
		if f.gzipped != nil {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Values("Accept-Encoding")) {
				body, etag, length = f.gzipped, f.gzipETag, f.gzipLength
				h.Set("Content-Encoding", "gzip")
			}
		}
		h.Set("ETag", etag)
		// ServeContent leaves Content-Length out when Content-Encoding is
		// set (it sets it itself for a range, and drops it from a 304).
		h.Set("Content-Length", length)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
	})
}

// acceptsGzip reports whether the Accept-Encoding header lines allow gzip
// (RFC 9110, 12.5.3): gzip, x-gzip or * listed with a weight above 0, gzip's
// own entry before *'s. No header at all gets the file as it is, as from
// every production server.
func acceptsGzip(lines []string) bool {
	star := false
	for _, line := range lines {
		for _, item := range strings.Split(line, ",") {
			coding, params, _ := strings.Cut(item, ";")
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(k, "q") {
					var err error
					if q, err = strconv.ParseFloat(v, 64); err != nil {
						q = 0
					}
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				return q > 0
			case "*":
				star = q > 0
			}
		}
	}
	return star
}
