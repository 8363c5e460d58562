package main

import (
	"io"
	"net/http"
	"testing"

	"crudbench/apps/internal/auth"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// BenchmarkReads measures the bench's read-one and read-small pages through
// the real handler over HTTP and PostgreSQL, like the REST app's
// BenchmarkReads: a signed-in viewer, the whole document, the body drained.
// It runs once per renderer (HTMX_RENDERER), both over one database, so the
// two compare within one run.
func BenchmarkReads(b *testing.B) {
	dbURL := dbtest.Seeded(b)
	for _, renderer := range []string{rendererTemplate, rendererTempl} {
		ts := startSiteWith(b, dbURL, db.Options{}, db.DefaultTimeout, renderer)
		token, _, err := ts.tokens.Issue(1, "viewer", auth.RoleViewer)
		if err != nil {
			b.Fatal(err)
		}
		client := &http.Client{}
		for _, bc := range []struct{ name, path string }{
			{"read-one", "/persons/1"},
			{"read-small", "/vacancies?status=open"},
		} {
			b.Run(renderer+"/"+bc.name, func(b *testing.B) {
				for b.Loop() {
					req, _ := http.NewRequest(http.MethodGet, ts.URL+bc.path, nil)
					req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: token})
					resp, err := client.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					n, _ := io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK || n < 1000 {
						b.Fatalf("status %d, %d bytes", resp.StatusCode, n)
					}
				}
			})
		}
	}
}
