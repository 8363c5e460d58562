package serve

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// FuzzFramingFollowsNetHTTP reads a stream the way net/http's server does
// (http.ReadRequest, each body read to its end) and checks that framing,
// fed the same bytes in two pieces, noted the same requests in the same
// order up to the first chunked one: a stream net/http accepts is never
// refused for framing, and a request net/http frames by Transfer-Encoding
// is never taken for one framed by Content-Length. It is an internal test
// because framing is not exported; the socket tests cover the rest.
func FuzzFramingFollowsNetHTTP(f *testing.F) {
	for _, seed := range []string{
		"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /b?q=1 HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcPUT /b HTTP/1.1\r\nHost: x\r\nContent-Length:  2 \r\ncontent-length: 2\r\n\r\nxy",
		"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n 4\r\n\r\nabcdGET / HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\nx",
		"GET / HTTP/1.1\nHost: x\n\nGET /lf HTTP/1.1\nHost: x\nContent-Length: 1\n\nz",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		var fr framing
		fr.feed(stream[:len(stream)/2])
		fr.feed(stream[len(stream)/2:])
		br := bufio.NewReader(bytes.NewReader(stream))
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			h, known := fr.next(req)
			if !known {
				t.Fatalf("net/http read %q %q (TE %q, length %d); framing noted %+v", req.Method, req.RequestURI, req.TransferEncoding, req.ContentLength, h)
			}
			if chunked := len(req.TransferEncoding) > 0; chunked != (h.transfer && !h.http10) {
				t.Fatalf("net/http reads %q %q as chunked %v; framing noted %+v", req.Method, req.RequestURI, chunked, h)
			}
			if h.transfer {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				return
			}
		}
	})
}

// BenchmarkFraming is what following the stream costs per request: the head
// and body of one of the bench's writes, fed as one read, and the check.
func BenchmarkFraming(b *testing.B) {
	body := `{"title":"Research Software Engineer","department":"Computing","location":"Berlin","employment_type":"full_time","salary_min_cents":5000000,"salary_max_cents":7000000,"status":"open"}`
	raw := []byte("POST /api/vacancies HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Go-http-client/1.1\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\nAuthorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyIiwibmFtZSI6ImVkaXRvciIsInJvbGUiOiJlZGl0b3IiLCJleHAiOjE4MDAwMDAwMDB9.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl\r\n" +
		"Content-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n" + body)
	req := httptest.NewRequest(http.MethodPost, "/api/vacancies", nil)
	req.RequestURI = "/api/vacancies"
	var fr framing
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		fr.feed(raw)
		if _, ok := fr.next(req); !ok {
			b.Fatal("framing lost the request")
		}
	}
}
