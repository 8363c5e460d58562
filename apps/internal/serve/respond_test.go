package serve_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"crudbench/apps/internal/serve"
)

// TestRespond checks the one way every app writes a body: status, type,
// Content-Length and the body as rendered; and when rendering fails,
// nothing sent, so the caller's 500 goes out clean.
func TestRespond(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 2<<20) // past the pooled size, so the buffer is dropped
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := r.URL.Query().Get("body")
		if body == "big" {
			body = big
		}
		err := serve.Respond(w, http.StatusCreated, "text/plain; charset=utf-8", func(b io.Writer) error {
			io.WriteString(b, body)
			if r.URL.Query().Has("fail") {
				return errors.New("cannot render")
			}
			return nil
		})
		if err != nil {
			http.Error(w, "clean 500", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)

	for _, tt := range []struct {
		name, query string
		status      int
		body        string
	}{
		{"small", "?body=hello", http.StatusCreated, "hello"},
		{"large", "?body=big", http.StatusCreated, big},
		{"again after a large one", "?body=hi", http.StatusCreated, "hi"},
		{"render fails", "?body=half&fail", http.StatusInternalServerError, "clean 500\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tt.query)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.status || string(b) != tt.body || resp.ContentLength != int64(len(tt.body)) {
				t.Errorf("HTTP %d, Content-Length %d, %d bytes; want %d with %d bytes", resp.StatusCode, resp.ContentLength, len(b), tt.status, len(tt.body))
			}
		})
	}
}
