package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"

	"crudbench/resources"
)

// TestStaticGzip checks that the site's scripts and style sheet go
// gzip-compressed to a client that accepts gzip and as they are to any
// other, each encoding with its own Content-Length and ETag, and always with
// Vary: Accept-Encoding, so that no cache hands one client's encoding to
// another.
func TestStaticGzip(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	// The transport's own gzip is off: the test sees the bytes on the wire.
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	tests := []struct {
		name           string
		acceptEncoding string // "" sends no Accept-Encoding
		gzip           bool
	}{
		{"chromium", "gzip, deflate, br, zstd", true},
		{"gzip only", "gzip", true},
		{"weighted", "br;q=1.0, GZIP;q=0.5", true},
		{"any", "*", true},
		{"no header", "", false},
		{"identity", "identity", false},
		{"gzip refused", "gzip;q=0, deflate", false},
		{"gzip refused before any", "*, gzip;q=0", false},
		{"brotli only", "br", false},
	}
	for _, file := range []string{"htmx-2.0.11.min.js", "site.css"} {
		want, err := resources.Static.ReadFile("static/" + file)
		if err != nil {
			t.Fatal(err)
		}
		etags := map[bool]string{}
		for _, tt := range tests {
			t.Run(file+"/"+tt.name, func(t *testing.T) {
				res, body := getStatic(t, c, ts.URL+"/static/"+file, tt.acceptEncoding, "")
				if res.StatusCode != http.StatusOK {
					t.Fatalf("status %d, want 200", res.StatusCode)
				}
				if got := res.Header.Get("Vary"); got != "Accept-Encoding" {
					t.Errorf("Vary = %q, want Accept-Encoding", got)
				}
				if res.ContentLength != int64(len(body)) {
					t.Errorf("Content-Length %d, body %d bytes", res.ContentLength, len(body))
				}
				got := body
				if tt.gzip {
					if ce := res.Header.Get("Content-Encoding"); ce != "gzip" {
						t.Fatalf("Content-Encoding = %q, want gzip", ce)
					}
					if len(body) >= len(want) {
						t.Errorf("gzipped %d bytes, the file %d", len(body), len(want))
					}
					got = gunzip(t, body)
				} else if ce := res.Header.Get("Content-Encoding"); ce != "" {
					t.Errorf("Content-Encoding = %q, want none", ce)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("body (%d bytes) is not the file (%d bytes)", len(got), len(want))
				}
				etag := res.Header.Get("ETag")
				if prev, ok := etags[tt.gzip]; ok && prev != etag {
					t.Errorf("ETag %s, another request of this encoding got %s", etag, prev)
				}
				etags[tt.gzip] = etag
				again, _ := getStatic(t, c, ts.URL+"/static/"+file, tt.acceptEncoding, etag)
				if again.StatusCode != http.StatusNotModified {
					t.Errorf("with If-None-Match %s: status %d, want 304", etag, again.StatusCode)
				}
			})
		}
		if etags[true] == etags[false] {
			t.Errorf("%s: one ETag %s for both encodings", file, etags[true])
		}
	}
}

// getStatic GETs url with the Accept-Encoding and If-None-Match given (none
// when ""), and returns the answer and its body as received.
func getStatic(t *testing.T, c *http.Client, url, acceptEncoding, ifNoneMatch string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	if ifNoneMatch != "" {
		req.Header.Set("If-None-Match", ifNoneMatch)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// gunzip is b decompressed.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
