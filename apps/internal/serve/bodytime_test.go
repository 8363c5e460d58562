package serve_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"crudbench/apps/internal/serve"
)

// stackServer runs Run with handler behind a Stack whose deadline is
// timeout, and a ReadTimeout far beyond socketWait: what ends a slow body
// in time is the request's deadline, not the server's read timeout.
func stackServer(t *testing.T, timeout time.Duration, handler http.HandlerFunc) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logger := slog.New(slog.DiscardHandler)
	h := serve.Stack{Logger: logger, Timeout: timeout, OnTooLarge: func(http.ResponseWriter, *http.Request) {}}.Wrap(handler)
	url, done := start(t, ctx, logger, h, serve.Options{ReadTimeout: 10 * socketWait, WriteTimeout: 10 * socketWait})
	t.Cleanup(func() { cancel(); wait(t, done) })
	return url
}

// A body that stops coming ends the request at its deadline: the handler's
// read fails, its answer reaches the client and the connection closes.
func TestDeadlineBoundsBodyReading(t *testing.T) {
	url := stackServer(t, 500*time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "the body could not be read", http.StatusBadRequest)
			return
		}
		io.WriteString(w, "read")
	})
	c := dialRaw(t, url)
	c.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\na")
	resp, body := c.answer()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("answer %d %q, want the handler's 400", resp.StatusCode, body)
	}
	c.wantClosed()
}

// Once its body is read, a request that outlives its deadline does not
// take the next request on its connection down with it: that one starts
// with a live context. (A read deadline left on the connection would fail
// net/http's wait for the next request, which it takes for the client
// hanging up: it would cancel the connection's context.)
func TestDeadlineSparesTheNextRequest(t *testing.T) {
	url := stackServer(t, 300*time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
		if err := r.Context().Err(); err != nil {
			http.Error(w, "context done at the start: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "the body could not be read", http.StatusBadRequest)
			return
		}
		if string(body) == "outlive" {
			<-r.Context().Done()
		}
		io.WriteString(w, "done")
	})
	c := dialRaw(t, url)
	c.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\noutlive")
	if resp, body := c.answer(); resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("first answer %d %q (close %v), want 200 keeping the connection", resp.StatusCode, body, resp.Close)
	}
	for _, req := range []string{
		"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nnext",
	} {
		c.send(req)
		if resp, body := c.answer(); resp.StatusCode != http.StatusOK {
			t.Errorf("next request on the connection: %d %q", resp.StatusCode, body)
		}
	}
}
