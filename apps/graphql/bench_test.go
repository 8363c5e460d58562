package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// BenchmarkReads measures the bench's read-one and read-small queries
// through the real handler over HTTP and PostgreSQL. Run it beside the REST
// app's BenchmarkReads in one invocation (go test -run ^$ -bench Reads
// ./apps/rest ./apps/graphql) and compare the ratio; -cpuprofile shows where
// a request's time goes. The client only drains the body, as in the REST
// benchmark, so both pay the same client cost.
func BenchmarkReads(b *testing.B) {
	app := startApp(b)
	token := app.login(b, "viewer")
	for _, bc := range []struct {
		name, doc string
		vars      map[string]any
	}{
		{"read-one", "showcase", map[string]any{"id": "1"}},
		{"read-small", "open_vacancies", nil},
	} {
		body, err := json.Marshal(map[string]any{"query": loadQuery(b, bc.doc), "variables": bc.vars})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := http.DefaultClient.Do(req)
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
