// Package grpcwire carries HTTP requests as gRPC calls, so that the bench
// sends gRPC through the same vegeta attacks, results, raw files and checks
// as every other kind: a request POST grpc://host:port/pkg.Service/Method
// whose body is the marshalled request message becomes a unary call of
// /pkg.Service/Method on host:port, and the call's outcome comes back as an
// HTTP response whose body is the response message's bytes as they crossed
// the wire (so vegeta's bytes in are Protobuf bytes) and whose status is the
// HTTP equivalent of the gRPC status (so success is counted the same way by
// the report and by `vegeta report` on a raw file).
//
// It is registered on an http.Transport for the scheme "grpc"
// (http.Transport.RegisterProtocol) or used as an http.Client's Transport.
package grpcwire

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
	"time"

	rpccode "google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Scheme is the URL scheme of a request the Transport carries.
const Scheme = "grpc"

// ContentType is gRPC with Protobuf messages: what the calls are sent as,
// and the media type of an answer whose server sent none (a call that
// failed before its headers).
const ContentType = "application/grpc+proto"

// Transport is an http.RoundTripper that makes each request a unary gRPC
// call over a fixed number of HTTP/2 connections per host (New's conns),
// taken in turn. It is safe for concurrent use; Close closes its
// connections.
type Transport struct {
	// conns is how many connections each host gets (at least 1). gRPC
	// multiplexes every call in flight over one connection, so this, not
	// the concurrency, is what fixes the number of connections.
	conns int

	mu     sync.RWMutex
	hosts  map[string]*pool
	closed bool
}

// pool is one host's connections and the turn of the next call.
type pool struct {
	conns []*grpc.ClientConn
	next  atomic.Uint64
}

// New returns a Transport that opens conns connections to each host it is
// asked for, when it is first asked.
func New(conns int) *Transport {
	return &Transport{conns: max(conns, 1), hosts: map[string]*pool{}}
}

// RoundTrip implements http.RoundTripper. A gRPC status, an error one
// included, is an answer; only a request that cannot be sent and a
// request whose context ends (the client's timeout) are errors, as they
// are for HTTP.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close()
	}
	if req.Method != http.MethodPost {
		return nil, fmt.Errorf("grpcwire: %s %s: a gRPC call is a POST", req.Method, req.URL.Redacted())
	}
	var in []byte
	if req.Body != nil {
		var err error
		if in, err = io.ReadAll(req.Body); err != nil {
			return nil, fmt.Errorf("grpcwire: read request body: %w", err)
		}
	}
	cc, err := t.conn(req.URL.Host)
	if err != nil {
		return nil, err
	}
	ctx := metadata.NewOutgoingContext(req.Context(), outgoing(req.Header))
	var out []byte
	var header, trailer metadata.MD
	// The context's deadline, the client's timeout, is the call's
	// deadline: grpc-go sends it as grpc-timeout.
	callErr := cc.Invoke(ctx, req.URL.Path, in, &out, grpc.ForceCodec(bytesCodec{}), grpc.Header(&header), grpc.Trailer(&trailer))
	if dl, has := req.Context().Deadline(); has && status.Code(callErr) == codes.DeadlineExceeded && time.Until(dl) < deadlineSlack {
		// The server's copy of the client's deadline (grpc-timeout) can
		// run out a moment before the client's own timer: wait for it, so
		// the same timeout is the client's error either way.
		select {
		case <-req.Context().Done():
		case <-time.After(time.Until(dl) + deadlineSlack):
		}
	}
	if callErr != nil && req.Context().Err() != nil {
		// Given up by the client, as an HTTP client gives up: an error,
		// not an answer.
		return nil, req.Context().Err()
	}
	st := status.Convert(callErr)
	if callErr != nil {
		out = nil
	}
	h := http.Header{}
	h.Set("Content-Type", ContentType)
	if ct := header.Get("content-type"); len(ct) > 0 {
		h.Set("Content-Type", ct[0])
	}
	h.Set("Grpc-Status", strconv.Itoa(int(st.Code())))
	if st.Message() != "" {
		h.Set("Grpc-Message", st.Message())
	}
	return &http.Response{
		// The status line names the gRPC code: what vegeta records as a
		// failed call's error, e.g. "503 UNAVAILABLE".
		Status:        strconv.Itoa(HTTPStatus(st.Code())) + " " + CodeName(st.Code()),
		StatusCode:    HTTPStatus(st.Code()),
		Proto:         "HTTP/2.0",
		ProtoMajor:    2,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(out)),
		ContentLength: int64(len(out)),
		Request:       req,
	}, nil
}

// outgoing turns request headers into call metadata: lower-case keys, the
// HTTP framing's own headers left out (grpc-go sets content-type, te and
// user-agent itself).
func outgoing(h http.Header) metadata.MD {
	md := metadata.MD{}
	for k, vs := range h {
		k = strings.ToLower(k)
		switch k {
		case "content-type", "accept", "user-agent", "te", "connection", "host", "content-length":
			continue
		}
		md[k] = append(md[k], vs...)
	}
	return md
}

// conn returns the next connection to host, taking them in turn. Every
// call of a load asks, so a host's connections are found under a read
// lock and made under the write lock only once.
func (t *Transport) conn(host string) (*grpc.ClientConn, error) {
	t.mu.RLock()
	p, ok := t.hosts[host]
	closed := t.closed
	t.mu.RUnlock()
	if closed {
		return nil, errClosed
	}
	if !ok {
		var err error
		if p, err = t.dial(host); err != nil {
			return nil, err
		}
	}
	return p.conns[(p.next.Add(1)-1)%uint64(len(p.conns))], nil
}

// errClosed fails a call after Close.
var errClosed = errors.New("grpcwire: transport closed")

// dial makes host's connections, unless another call just made them.
func (t *Transport) dial(host string) (*pool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errClosed
	}
	p, ok := t.hosts[host]
	if !ok {
		p = &pool{}
		for range t.conns {
			// Each ClientConn keeps a connection of its own: one
			// ClientConn would multiplex every call over one.
			cc, err := grpc.NewClient("passthrough:///"+host, grpc.WithTransportCredentials(insecure.NewCredentials()))
			if err != nil {
				closeAll(p.conns)
				return nil, fmt.Errorf("grpcwire: %s: %w", host, err)
			}
			p.conns = append(p.conns, cc)
		}
		t.hosts[host] = p
	}
	return p, nil
}

// Close closes every connection; calls after it fail.
func (t *Transport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	var errs []error
	for _, p := range t.hosts {
		errs = append(errs, closeAll(p.conns))
	}
	t.hosts = nil
	return errors.Join(errs...)
}

func closeAll(conns []*grpc.ClientConn) error {
	var errs []error
	for _, cc := range conns {
		errs = append(errs, cc.Close())
	}
	return errors.Join(errs...)
}

// HTTPStatus is the HTTP status of a gRPC status code: the mapping Google's
// API design guide gives beside google.rpc.Code (and grpc-gateway uses),
// with a stale version's ABORTED as REST's 409.
func HTTPStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.Canceled:
		return 499 // Client Closed Request, as the guide has it
	case codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// CodeName is code as the protocol spells it, e.g. NOT_FOUND (grpc-go's
// String says NotFound): google.rpc.Code's name; a code beyond the known
// ones is its number.
func CodeName(c codes.Code) string {
	if name, ok := rpccode.Code_name[int32(c)]; ok {
		return name
	}
	return strconv.Itoa(int(c))
}

// bytesCodec passes messages through as the bytes they are: the request's
// body goes out as it is, and the answer is kept as it came, so nothing is
// decoded on the load's path. Its name is "proto" because the bytes are
// Protobuf messages: the call's content-type says so.
type bytesCodec struct{}

func (bytesCodec) Marshal(v any) ([]byte, error) {
	b, ok := v.([]byte)
	if !ok {
		return nil, fmt.Errorf("grpcwire: cannot send a %T", v)
	}
	return b, nil
}

func (bytesCodec) Unmarshal(data []byte, v any) error {
	p, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("grpcwire: cannot receive into a %T", v)
	}
	// data is the codec's buffer, reused after the call: keep a copy.
	*p = bytes.Clone(data)
	return nil
}

func (bytesCodec) Name() string { return "proto" }

// deadlineSlack is how near the client's deadline a DeadlineExceeded from
// the server counts as the client's own timeout arriving late.
const deadlineSlack = 50 * time.Millisecond
