package main

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// graphiqlFiles is GraphiQL with React, vendored from npm (versions and
// checksums in graphiql/VERSIONS), and the page that starts it. The big
// files are stored gzipped.
//
//go:embed graphiql/index.html graphiql/app.js graphiql/*.gz
var graphiqlFiles embed.FS

// graphiqlPolicy lets the page load its own scripts and nothing else;
// GraphiQL sets inline styles and embeds its fonts as data: URLs.
const graphiqlPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"font-src 'self' data:; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// handleGraphiQL serves GraphiQL for people trying the API in a browser.
func handleGraphiQL() http.Handler {
	page, err := graphiqlFiles.ReadFile("graphiql/index.html")
	if err != nil {
		panic(err) // the file is embedded: only a broken build gets here
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", graphiqlPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		w.Write(page)
	})
}

// handleGraphiQLAsset serves the page's scripts and styles. Vendored files
// carry their version in the name, so browsers may keep them for good; they
// go out gzipped, or unpacked for the rare client that does not accept gzip.
func handleGraphiQLAsset() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("file")
		var contentType string
		switch path.Ext(name) {
		case ".js":
			contentType = "text/javascript; charset=utf-8"
		case ".css":
			contentType = "text/css; charset=utf-8"
		default:
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		if data, err := graphiqlFiles.ReadFile("graphiql/" + name); err == nil {
			h.Set("Content-Type", contentType)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Cache-Control", "no-cache")
			w.Write(data)
			return
		}
		packed, err := graphiqlFiles.ReadFile("graphiql/" + name + ".gz")
		if err != nil {
			http.NotFound(w, r)
			return
		}
		h.Set("Content-Type", contentType)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			w.Write(packed)
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(packed))
		if err != nil {
			panic(err) // the file is embedded: only a broken build gets here
		}
		io.Copy(w, zr)
	})
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip
// (RFC 9110: a q of 0 refuses it).
func acceptsGzip(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.TrimSpace(coding)
		if !strings.EqualFold(coding, "gzip") && coding != "*" {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			q, _ = strconv.ParseFloat(v, 64) // unreadable: 0, refused
		}
		return q > 0
	}
	return false
}
