package serve_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"crudbench/apps/internal/serve"
)

// socketWait bounds every wait for the server in the socket tests: far more
// than a loaded machine needs, far less than the server's own timeouts.
const socketWait = 20 * time.Second

// rawConn is a client connection that writes bytes as they are given and
// reads the server's answers one by one.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func dialRaw(t *testing.T, url string) *rawConn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawConn{t: t, conn: conn, r: bufio.NewReader(conn)}
}

func (c *rawConn) send(raw string) {
	c.t.Helper()
	if _, err := io.WriteString(c.conn, raw); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// answer reads the next response and its body.
func (c *rawConn) answer() (*http.Response, string) {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(socketWait))
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.t.Fatalf("reading an answer: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		c.t.Fatalf("reading an answer's body: %v", err)
	}
	return resp, string(body)
}

// wantClosed waits for the server to close the connection.
func (c *rawConn) wantClosed() {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(socketWait))
	n, err := c.r.Read(make([]byte, 1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		c.t.Fatalf("the connection is still open %v after the answer", socketWait)
	case n > 0:
		c.t.Fatal("the server sent more after the answer")
	case err == nil:
		c.t.Fatal("read nothing and no error")
	}
}

// served records the requests that reached the handler.
type served struct {
	mu   sync.Mutex
	reqs []string
}

func (s *served) add(r string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
}

func (s *served) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

// echoServer runs Run with a handler that answers each request with its
// method, target and body, and records them.
func echoServer(t *testing.T) (string, *served) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var seen served
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got := r.Method + " " + r.RequestURI + " " + string(body)
		seen.add(got)
		io.WriteString(w, got)
	})
	url, done := start(t, ctx, slog.New(slog.DiscardHandler), h, serve.Options{})
	t.Cleanup(func() { cancel(); wait(t, done) })
	return url, &seen
}
