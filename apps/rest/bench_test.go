package main

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkReads measures the bench's read-one and read-small requests
// through the real handler over HTTP and PostgreSQL; see the GraphQL app's
// BenchmarkReads for how to compare the two in one run.
func BenchmarkReads(b *testing.B) {
	app := newApp(b)
	for _, bc := range []struct{ name, path string }{
		{"read-one", "/api/persons/1"},
		{"read-small", "/api/vacancies?status=open"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodGet, app.url+bc.path, nil)
				req.Header.Set("Authorization", "Bearer "+app.viewer)
				resp, err := app.client.Do(req)
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
