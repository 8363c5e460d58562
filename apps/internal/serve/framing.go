package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// RFC 9112 §6.1: a request that carries both Transfer-Encoding and
// Content-Length (or Transfer-Encoding in HTTP/1.0) has faulty framing; the
// server must close the connection after answering it, because a proxy in
// front that frames by Content-Length reads the rest of the stream as
// another request (request smuggling). net/http serves such a request by its
// Transfer-Encoding and keeps the connection, and it deletes Content-Length
// before a handler could see both. So every connection's reads pass through
// a framingConn, which notes the framing headers of each request head as
// net/http reads it, and checkFraming, before any handler, refuses the
// request with 400 and closes the connection.
//
// To find where the next head starts, framingConn follows Content-Length
// bodies; it does not follow chunked bodies (a second parser of the riskiest
// part of HTTP/1.1): a request with a chunked body is served and its
// connection closed after the answer. Browsers never send such bodies, nor
// does the bench.

// maxQueuedHeads bounds the heads a connection has read ahead of the request
// being served (pipelining); net/http reads at most a few KiB ahead, so a
// client that pipelines requests stays far below it.
const maxQueuedHeads = 256

// head is what framingConn notes about one request head.
type head struct {
	method, target string
	contentLength  bool // a Content-Length field
	transfer       bool // a Transfer-Encoding field
	http10         bool // an HTTP/1.0 request line
}

// faulty reports whether the head's framing is faulty (RFC 9112 §6.1).
func (h head) faulty() bool { return h.transfer && (h.contentLength || h.http10) }

// framingState is where the reader of a connection's stream is.
type framingState int

const (
	inHead framingState = iota // before or inside a request head
	inBody                     // inside a Content-Length body
	lost                       // not following any more: a chunked body, or a head net/http refuses
)

// framing follows one connection's request stream: heads line by line,
// Content-Length bodies by count. It mirrors net/http's reading of a head
// (textproto lines, obs-fold continuations, Content-Length values) only as
// far as framing needs; where it could disagree, checkFraming notices that
// the request served is not the head it noted and refuses it.
type framing struct {
	state   framingState
	line    []byte // the current, unfinished line of a head
	headLen int    // bytes of the current head so far
	cur     head
	started bool     // the request line of cur is read
	lengths []string // cur's Content-Length values
	last    string   // the name of cur's last field, for continuation lines
	remain  int64    // bytes left of a Content-Length body
	heads   []head   // heads read, not yet served
}

// feed reads the next bytes of the stream.
func (f *framing) feed(p []byte) {
	for len(p) > 0 {
		switch f.state {
		case lost:
			return
		case inBody:
			n := min(int64(len(p)), f.remain)
			f.remain -= n
			p = p[n:]
			if f.remain == 0 {
				f.state = inHead
			}
		case inHead:
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				if f.count(len(p)) {
					f.line = append(f.line, p...)
				}
				return
			}
			line := p[:i]
			p = p[i+1:]
			if !f.count(len(line)) {
				return
			}
			if len(f.line) > 0 {
				// The line began in an earlier read.
				f.line = append(f.line, line...)
				line = f.line
			}
			f.endLine(line)
			f.line = f.line[:0]
			if cap(f.line) > 4096 {
				f.line = nil
			}
		}
	}
}

// count adds n bytes to the current head, giving up on a head larger than
// net/http reads (it answers such a head with 431 and closes the
// connection); it reports whether framing still follows the stream.
func (f *framing) count(n int) bool {
	f.headLen += n
	if f.headLen > MaxHeaderBytes+4096 {
		f.state = lost
	}
	return f.state != lost
}

// endLine handles a complete line of a head, without its LF.
func (f *framing) endLine(line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !f.started {
		// net/http skips CR and LF bytes left after a POST's body.
		line = bytes.TrimLeft(line, "\r\n")
		if len(line) == 0 {
			f.headLen = 0
			return
		}
		method, rest, _ := bytes.Cut(line, []byte(" "))
		target, proto, _ := bytes.Cut(rest, []byte(" "))
		f.cur = head{method: methodString(method), target: string(target), http10: string(proto) == "HTTP/1.0"}
		f.started = true
		return
	}
	switch {
	case len(line) == 0:
		f.endHead()
	case line[0] == ' ' || line[0] == '\t':
		// An obs-fold continuation: textproto joins it to the field
		// above with one space.
		if f.last == "content-length" {
			f.lengths[len(f.lengths)-1] += " " + trimSpace(string(line))
		}
	default:
		name, value, _ := bytes.Cut(line, []byte(":"))
		f.last = ""
		switch {
		case asciiEqualFold(name, "content-length"):
			f.last = "content-length"
			f.cur.contentLength = true
			f.lengths = append(f.lengths, trimSpace(string(value)))
		case asciiEqualFold(name, "transfer-encoding"):
			f.cur.transfer = true
		}
	}
}

// endHead queues the finished head and finds where its body ends, as
// net/http's fixLength does: Transfer-Encoding first, then one valid
// Content-Length (repeats must agree), else no body.
func (f *framing) endHead() {
	h, lengths := f.cur, f.lengths
	f.cur, f.lengths, f.last, f.started, f.headLen = head{}, f.lengths[:0], "", false, 0
	if len(f.heads) == maxQueuedHeads {
		f.state = lost
		return
	}
	f.heads = append(f.heads, h)
	if h.transfer {
		// Chunked (checkFraming closes the connection after it), faulty
		// (refused and closed) or refused by net/http.
		f.state = lost
		return
	}
	if len(lengths) == 0 {
		return
	}
	first := trimSpace(lengths[0])
	for _, l := range lengths[1:] {
		if trimSpace(l) != first {
			f.state = lost
			return
		}
	}
	n, err := strconv.ParseUint(first, 10, 63)
	switch {
	case err != nil:
		f.state = lost
	case n > 0:
		f.state, f.remain = inBody, int64(n)
	}
}

// next removes and returns the head of the request net/http is serving,
// which comes first in the stream; false when the framing of the stream is
// not known up to it.
func (f *framing) next(r *http.Request) (head, bool) {
	if len(f.heads) == 0 {
		return head{}, false
	}
	h := f.heads[0]
	n := copy(f.heads, f.heads[1:])
	f.heads = f.heads[:n]
	return h, h.method == r.Method && h.target == r.RequestURI
}

// methodString is method as a string, without allocating for the usual
// methods.
func methodString(method []byte) string {
	for _, m := range [...]string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodOptions} {
		if string(method) == m {
			return m
		}
	}
	return string(method)
}

// trimSpace trims what textproto.TrimString does.
func trimSpace(s string) string {
	return strings.Trim(s, " \t\r\n")
}

// asciiEqualFold reports whether b is lower in any ASCII case, as
// textproto's canonical field names compare.
func asciiEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// framingConn is a connection whose reads feed its framing.
type framingConn struct {
	net.Conn
	mu sync.Mutex // net/http's background read may run while a handler checks
	f  framing
}

func (c *framingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.mu.Lock()
		c.f.feed(p[:n])
		c.mu.Unlock()
	}
	return n, err
}

// CloseWrite lets net/http half-close the connection before closing it, so
// that a client still sending (a refused request's body) reads the answer
// rather than a reset.
func (c *framingConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}

// ReadFrom keeps the connection's sendfile and splice for responses copied
// from files.
func (c *framingConn) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.Conn, r) }

func (c *framingConn) next(r *http.Request) (head, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.f.next(r)
}

// framingListener hands out framingConns.
type framingListener struct{ net.Listener }

func (l framingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &framingConn{Conn: c}, nil
}

// framingConnKey finds a request's *framingConn in its context.
type framingConnKey struct{}

func withFramingConn(ctx context.Context, c net.Conn) context.Context {
	if fc, ok := c.(*framingConn); ok {
		return context.WithValue(ctx, framingConnKey{}, fc)
	}
	return ctx
}

// checkFraming refuses, with 400 and a closed connection, a request whose
// framing is faulty or could not be followed, and closes the connection
// after a request with a chunked body. Requests on connections it does not
// follow (HTTP/2 has framing of its own) pass.
func checkFraming(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := r.Context().Value(framingConnKey{}).(*framingConn)
		if !ok || r.ProtoMajor != 1 {
			next.ServeHTTP(w, r)
			return
		}
		h, known := c.next(r)
		switch {
		case !known:
			refuseFraming(w, "the request's framing could not be followed")
		case h.faulty():
			refuseFraming(w, "Transfer-Encoding with Content-Length or in HTTP/1.0 (RFC 9112 section 6.1)")
		case h.transfer:
			w.Header().Set("Connection", "close")
			next.ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// refuseFraming answers 400 in plain text, as net/http answers requests it
// cannot parse, and closes the connection: what follows on it cannot be
// told apart from a smuggled request.
func refuseFraming(w http.ResponseWriter, why string) {
	w.Header().Set("Connection", "close")
	http.Error(w, "400 Bad Request: "+why, http.StatusBadRequest)
}
