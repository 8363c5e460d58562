// Package amqpwire carries HTTP requests as the amqp app's request/reply
// calls, so that the bench can send AMQP through the same vegeta attacks,
// results, raw files and checks as every other kind, as grpcwire does for
// gRPC: a request to amqprpc://<queue>/<type>?<parameters> becomes a
// request message of that type on that queue (the query's parameters as
// its parameter headers, the Authorization header as its authorization
// header, the body and its Content-Type as they are), and the reply comes
// back as an HTTP response whose status is the reply's status header and
// whose body is the reply's body as it crossed the wire (so vegeta's bytes
// in are the message's body bytes).
//
// It is registered on an http.Transport for the scheme "amqprpc"
// (http.Transport.RegisterProtocol) or used as an http.Client's Transport.
// The broker (its URL, user and vhost) is the Transport's.
package amqpwire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"crudbench/apps/amqp/amqprpc"
)

// Scheme is the URL scheme of a request the Transport carries.
const Scheme = "amqprpc"

// Transport is an http.RoundTripper that makes each request a call over a
// fixed number of AMQP connections per queue (New's conns), each with one
// channel that carries every call in flight on it, taken in turn. A
// connection the broker closed is dialled again by the next call that
// gets it. It is safe for concurrent use; Close closes its connections.
type Transport struct {
	url   string
	conns int

	mu     sync.RWMutex
	queues map[string]*pool
	closed bool
}

// pool is one queue's connections and the turn of the next call.
type pool struct {
	mu      sync.Mutex // guards clients' entries when one is replaced
	clients []*amqprpc.Client
	next    atomic.Uint64
}

// New returns a Transport to the broker at url that opens conns
// connections for each queue it is asked for, when it is first asked.
func New(url string, conns int) *Transport {
	return &Transport{url: url, conns: max(conns, 1), queues: map[string]*pool{}}
}

// RoundTrip implements http.RoundTripper. A reply, an error status
// included, is an answer; a request that cannot be sent (no broker, no
// queue, the connection lost) and one whose context ends before its reply
// (the client's timeout) are errors, as they are for HTTP.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close()
	}
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, fmt.Errorf("amqpwire: read request body: %w", err)
		}
	}
	call := amqprpc.Request{
		Type:        strings.TrimPrefix(req.URL.Path, "/"),
		Params:      map[string]string{},
		Body:        body,
		ContentType: req.Header.Get("Content-Type"),
	}
	for k, vs := range req.URL.Query() {
		call.Params[k] = vs[0]
	}
	if auth := req.Header.Get("Authorization"); auth != "" {
		call.Headers = map[string]any{"authorization": auth}
	}
	p, err := t.pool(req.URL.Host)
	if err != nil {
		return nil, err
	}
	i, c, err := p.take(t.url, req.URL.Host)
	if err != nil {
		return nil, err
	}
	// The context's deadline, the client's timeout, is sent as the
	// request's expiration.
	reply, err := c.Call(req.Context(), call)
	if errors.Is(err, amqprpc.ErrClosed) {
		p.drop(i, c)
	}
	if err != nil {
		return nil, fmt.Errorf("amqpwire: %s %s: %w", req.URL.Host, call.Type, err)
	}
	h := http.Header{}
	if reply.ContentType != "" {
		h.Set("Content-Type", reply.ContentType)
	}
	if reply.RetryAfter != "" {
		h.Set("Retry-After", reply.RetryAfter)
	}
	return &http.Response{
		Status:        strconv.Itoa(reply.Status) + " " + http.StatusText(reply.Status),
		StatusCode:    reply.Status,
		Proto:         "AMQP/0.9.1",
		ProtoMajor:    0,
		ProtoMinor:    9,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(reply.Body)),
		ContentLength: int64(len(reply.Body)),
		Request:       req,
	}, nil
}

// errClosed fails a call after Close.
var errClosed = errors.New("amqpwire: transport closed")

// pool returns queue's pool, making it on the first call.
func (t *Transport) pool(queue string) (*pool, error) {
	t.mu.RLock()
	p, ok := t.queues[queue]
	closed := t.closed
	t.mu.RUnlock()
	if closed {
		return nil, errClosed
	}
	if ok {
		return p, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errClosed
	}
	if p, ok = t.queues[queue]; !ok {
		p = &pool{clients: make([]*amqprpc.Client, t.conns)}
		t.queues[queue] = p
	}
	return p, nil
}

// take returns the next connection in turn, dialling it when it is not
// open yet or was lost.
func (p *pool) take(url, queue string) (int, *amqprpc.Client, error) {
	i := int((p.next.Add(1) - 1) % uint64(len(p.clients)))
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clients[i] == nil {
		c, err := amqprpc.Dial(url, queue)
		if err != nil {
			return i, nil, fmt.Errorf("amqpwire: %w", err)
		}
		p.clients[i] = c
	}
	return i, p.clients[i], nil
}

// drop forgets connection i if it is still c, so that the next call
// dials it again.
func (p *pool) drop(i int, c *amqprpc.Client) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clients[i] == c {
		p.clients[i] = nil
		go c.Close()
	}
}

// Close closes every connection; calls after it fail.
func (t *Transport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	var errs []error
	for _, p := range t.queues {
		p.mu.Lock()
		for _, c := range p.clients {
			if c != nil {
				errs = append(errs, c.Close())
			}
		}
		p.mu.Unlock()
	}
	t.queues = nil
	return errors.Join(errs...)
}
