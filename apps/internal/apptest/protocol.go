package apptest

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"crudbench/apps/internal/serve"
)

// WantProtocolRules checks, once per app on its real binary, that the HTTP/1
// rules every app gets from serve.Run hold on its public port: a request
// framed by both Content-Length and Transfer-Encoding is answered 400 and
// its connection closed, and one past the header budget (fields, cookies or
// bytes) is answered 431. Their edges are serve's tests.
func WantProtocolRules(t *testing.T, p *Process) {
	t.Helper()
	addr := strings.TrimPrefix(p.URL, "http://")

	resp, closed := exchange(t, addr, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"+
		"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != http.StatusBadRequest || !closed {
		t.Errorf("Content-Length with Transfer-Encoding: status %d, connection closed %v; want 400, closed", resp.StatusCode, closed)
	}

	var fields, cookies strings.Builder
	for i := range serve.MaxHeaderFields + 1 {
		fields.WriteString("X-Field-" + strconv.Itoa(i) + ": v\r\n")
	}
	cookies.WriteString("Cookie: ")
	for i := range serve.MaxCookies + 1 {
		cookies.WriteString("c" + strconv.Itoa(i) + "=v; ")
	}
	for name, headers := range map[string]string{
		"fields":  fields.String(),
		"cookies": strings.TrimSuffix(cookies.String(), "; ") + "\r\n",
		"bytes":   "X-Big: " + strings.Repeat("a", serve.MaxHeaderBytes+4096) + "\r\n",
	} {
		if resp, _ := exchange(t, addr, "GET /healthz HTTP/1.1\r\nHost: x\r\n"+headers+"\r\n"); resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("too many header %s: status %d, want 431", name, resp.StatusCode)
		}
	}
}

// exchange sends raw on a new connection to addr and returns the first
// answer and whether the server closed the connection after it.
func exchange(t *testing.T, addr, raw string) (*http.Response, bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !resp.Close {
		return resp, false
	}
	_, err = r.ReadByte()
	return resp, err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
}
