package main

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// GraphiQL is served from the binary: the page, its scripts and styles, no
// third-party host anywhere.
func TestGraphiQL(t *testing.T) {
	t.Parallel()
	app := startApp(t)
	resp, err := http.Get(app.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("GET /: HTTP %d, headers %v", resp.StatusCode, resp.Header)
	}
	if strings.Contains(string(page), "//") && regexp.MustCompile(`(src|href)="(https?:)?//`).Match(page) {
		t.Errorf("the page loads from another host:\n%s", page)
	}

	assets := regexp.MustCompile(`(?:src|href)="(/graphiql/[^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(assets) != 5 {
		t.Fatalf("%d assets on the page, want 5", len(assets))
	}
	sums := vendoredChecksums(t)
	for _, m := range assets {
		path := m[1]
		for _, gzipped := range []bool{true, false} {
			req, _ := http.NewRequest(http.MethodGet, app.URL+path, nil)
			if gzipped {
				req.Header.Set("Accept-Encoding", "gzip, br")
			} else {
				req.Header.Set("Accept-Encoding", "identity")
			}
			resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip
			if err != nil {
				t.Fatal(err)
			}
			var body io.Reader = resp.Body
			if resp.Header.Get("Content-Encoding") == "gzip" {
				if body, err = gzip.NewReader(resp.Body); err != nil {
					t.Fatal(err)
				}
			}
			data, err := io.ReadAll(body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 || len(data) == 0 {
				t.Fatalf("%s: HTTP %d, %d bytes, %v", path, resp.StatusCode, len(data), err)
			}
			ct := resp.Header.Get("Content-Type")
			if !strings.HasPrefix(ct, "text/javascript") && !strings.HasPrefix(ct, "text/css") {
				t.Errorf("%s: Content-Type %q", path, ct)
			}
			name := strings.TrimPrefix(path, "/graphiql/")
			if want, vendored := sums[name]; vendored {
				sum := sha256.Sum256(data)
				if got := hex.EncodeToString(sum[:]); got != want {
					t.Errorf("%s: sha256 %s, graphiql/VERSIONS says %s", name, got, want)
				}
				if gzipped != (resp.Header.Get("Content-Encoding") == "gzip") {
					t.Errorf("%s: Accept-Encoding gzip %v, Content-Encoding %q", name, gzipped, resp.Header.Get("Content-Encoding"))
				}
			}
		}
	}

	for _, path := range []string{"/graphiql/nope.js", "/graphiql/index.html", "/graphiql/VERSIONS"} {
		resp, err := http.Get(app.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: HTTP %d, want 404", path, resp.StatusCode)
		}
	}
}

// vendoredChecksums reads graphiql/VERSIONS: served name -> sha256 of the
// uncompressed file.
func vendoredChecksums(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("graphiql/VERSIONS")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 5 && fields[3] == "->" {
			sums[strings.TrimSuffix(fields[4], ".gz")] = fields[2]
		}
	}
	if len(sums) != 4 {
		t.Fatalf("graphiql/VERSIONS lists %d files, want 4", len(sums))
	}
	return sums
}
