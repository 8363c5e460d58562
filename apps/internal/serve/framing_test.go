package serve_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// A request framed two ways is refused with 400 and its connection closed,
// so that what follows it (here a GET a proxy framing by Content-Length
// would not have seen) is never served.
func TestFramingRefusesFaultyFraming(t *testing.T) {
	const smuggled = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
	for _, tt := range []struct{ name, request string }{
		{"content-length then chunked", "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
		{"chunked then content-length", "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"},
		{"lower-case names", "POST /a HTTP/1.1\r\nHost: x\r\ntransfer-encoding: chunked\r\ncontent-length: 5\r\n\r\n0\r\n\r\n"},
		{"transfer-encoding in HTTP/1.0", "POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello"},
		{"after a good request", "GET /ok HTTP/1.1\r\nHost: x\r\n\r\nPOST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			url, seen := echoServer(t)
			c := dialRaw(t, url)
			c.send(tt.request + smuggled)
			resp, body := c.answer()
			if strings.HasPrefix(tt.request, "GET /ok") {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("the good request: %d %s", resp.StatusCode, body)
				}
				resp, body = c.answer()
			}
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("status %d %q, want 400", resp.StatusCode, body)
			}
			if !resp.Close {
				t.Error("the 400 does not say Connection: close")
			}
			c.wantClosed()
			for _, r := range seen.list() {
				if strings.HasPrefix(r, "POST /a") || strings.HasPrefix(r, "GET /smuggled") {
					t.Errorf("the handler served %q", r)
				}
			}
		})
	}
}

// Requests framed by Content-Length alone, one after another or pipelined,
// are all served on one connection, which stays open.
func TestFramingKeepsContentLengthConnections(t *testing.T) {
	url, _ := echoServer(t)
	c := dialRaw(t, url)
	c.send("POST /one HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
	if _, body := c.answer(); body != "POST /one hello" {
		t.Errorf("first answer %q", body)
	}
	// Pipelined, with a body that looks like a faulty head, a repeated
	// Content-Length and a folded one.
	fake := "GET /x HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
	c.send("PUT /two HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(len(fake)) + "\r\n\r\n" + fake +
		"POST /three HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\nabc" +
		"GET /four?q=a%20b HTTP/1.1\r\nHost: x\r\n\r\n")
	for _, want := range []string{"PUT /two " + fake, "POST /three abc", "GET /four?q=a%20b "} {
		resp, body := c.answer()
		if resp.StatusCode != http.StatusOK || body != want {
			t.Errorf("answer %d %q, want 200 %q", resp.StatusCode, body, want)
		}
		if resp.Close {
			t.Errorf("answer to %q closes the connection", want)
		}
	}
	c.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\nGET /five HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp, body := c.answer(); resp.StatusCode != http.StatusOK || body != "OPTIONS * " {
		t.Errorf("OPTIONS *: %d %q", resp.StatusCode, body)
	}
	if resp, body := c.answer(); resp.StatusCode != http.StatusOK || body != "GET /five " {
		t.Errorf("after OPTIONS *: %d %q", resp.StatusCode, body)
	}
}

// A chunked body alone is served, and its connection closed after the
// answer: the server does not follow chunked framing to the next request.
func TestFramingClosesAfterChunkedBody(t *testing.T) {
	url, _ := echoServer(t)
	c := dialRaw(t, url)
	c.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
	resp, body := c.answer()
	if resp.StatusCode != http.StatusOK || body != "POST /chunked hello" {
		t.Errorf("answer %d %q", resp.StatusCode, body)
	}
	if !resp.Close {
		t.Error("the answer does not say Connection: close")
	}
	c.wantClosed()
}
