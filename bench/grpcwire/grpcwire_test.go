package grpcwire_test

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
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	"crudbench/bench/grpcwire"
)

// rawCodec lets the test server see and send the bytes on the wire.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error)      { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error { *(v.(*[]byte)) = bytes.Clone(data); return nil }
func (rawCodec) Name() string                       { return "proto" }

// server is a real gRPC server that answers every method: /t.S/Echo sends
// the request's bytes back reversed, /t.S/Code<n> fails with status n,
// /t.S/Meta answers the authorization metadata it got, /t.S/Block waits
// until the call's context ends and records why.
type server struct {
	addr string

	// blocked receives why a blocked call ended.
	blocked chan error

	mu    sync.Mutex
	peers map[string]bool
	// deadlines are the deadlines the calls arrived with.
	deadlines []time.Duration
}

func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{peers: map[string]bool{}, blocked: make(chan error, 1)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	srv := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}), grpc.UnknownServiceHandler(s.handle))
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	return s
}

func (s *server) handle(_ any, stream grpc.ServerStream) error {
	ctx := stream.Context()
	method, _ := grpc.MethodFromServerStream(stream)
	var in []byte
	if err := stream.RecvMsg(&in); err != nil {
		return err
	}
	s.mu.Lock()
	if p, ok := peer.FromContext(ctx); ok {
		s.peers[p.Addr.String()] = true
	}
	if d, ok := ctx.Deadline(); ok {
		s.deadlines = append(s.deadlines, time.Until(d))
	}
	s.mu.Unlock()
	var out []byte
	switch {
	case method == "/t.S/Echo":
		for i := len(in) - 1; i >= 0; i-- {
			out = append(out, in[i])
		}
	case method == "/t.S/Meta":
		md, _ := metadata.FromIncomingContext(ctx)
		out = []byte(strings.Join(md.Get("authorization"), "|") + ";" + strings.Join(md.Get("x-extra"), "|"))
	case method == "/t.S/Block":
		<-ctx.Done()
		s.blocked <- ctx.Err()
		return status.FromContextError(ctx.Err()).Err()
	case strings.HasPrefix(method, "/t.S/Code"):
		n, _ := strconv.Atoi(strings.TrimPrefix(method, "/t.S/Code"))
		return status.Error(codes.Code(n), "code "+strconv.Itoa(n))
	default:
		return status.Error(codes.Unimplemented, method)
	}
	return stream.SendMsg(&out)
}

// post sends body to method of the server through tr.
func post(t *testing.T, c *http.Client, s *server, method string, body []byte, h http.Header) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "grpc://"+s.addr+method, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, out, nil
}

func newClient(t *testing.T, conns int, timeout time.Duration) (*http.Client, *grpcwire.Transport) {
	t.Helper()
	tr := grpcwire.New(conns)
	t.Cleanup(func() { tr.Close() })
	return &http.Client{Transport: tr, Timeout: timeout}, tr
}

func TestBytes(t *testing.T) {
	s := startServer(t)
	c, _ := newClient(t, 1, 10*time.Second)
	resp, body, err := post(t, c, s, "/t.S/Echo", []byte("\x0a\x03abc"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || string(body) != "cba\x03\x0a" || resp.ContentLength != 5 {
		t.Errorf("status %d, body %q (length %d), want 200 and the request's bytes reversed", resp.StatusCode, body, resp.ContentLength)
	}
	if ct, st := resp.Header.Get("Content-Type"), resp.Header.Get("Grpc-Status"); ct != grpcwire.ContentType || st != "0" {
		t.Errorf("Content-Type %q, Grpc-Status %q; want %s, 0", ct, st, grpcwire.ContentType)
	}
	// An empty message is zero bytes both ways, and still a call.
	if resp, body, err := post(t, c, s, "/t.S/Echo", nil, nil); err != nil || resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("empty message: %v, %v, %q", err, resp, body)
	}
}

func TestMetadata(t *testing.T) {
	s := startServer(t)
	c, _ := newClient(t, 1, 10*time.Second)
	h := http.Header{"Authorization": {"Bearer t0k"}, "X-Extra": {"a", "b"}, "Content-Type": {grpcwire.ContentType}}
	_, body, err := post(t, c, s, "/t.S/Meta", nil, h)
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != "Bearer t0k;a|b" {
		t.Errorf("the server saw %q, want the headers as metadata", body)
	}
}

func TestStatus(t *testing.T) {
	s := startServer(t)
	c, _ := newClient(t, 1, 10*time.Second)
	for _, tt := range []struct {
		code codes.Code
		want int
	}{
		{codes.InvalidArgument, 400},
		{codes.Unauthenticated, 401},
		{codes.PermissionDenied, 403},
		{codes.NotFound, 404},
		{codes.Canceled, 499},
		{codes.FailedPrecondition, 400},
		{codes.Aborted, 409},
		{codes.ResourceExhausted, 429},
		{codes.Internal, 500},
		{codes.Unimplemented, 501},
		{codes.Unavailable, 503},
		{codes.DeadlineExceeded, 504},
	} {
		t.Run(tt.code.String(), func(t *testing.T) {
			resp, body, err := post(t, c, s, "/t.S/Code"+strconv.Itoa(int(tt.code)), []byte("x"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.want || len(body) != 0 || resp.Status != strconv.Itoa(tt.want)+" "+grpcwire.CodeName(tt.code) {
				t.Errorf("status %q, body %q; want %d, empty", resp.Status, body, tt.want)
			}
			if st, msg := resp.Header.Get("Grpc-Status"), resp.Header.Get("Grpc-Message"); st != strconv.Itoa(int(tt.code)) || msg != "code "+st {
				t.Errorf("Grpc-Status %q, Grpc-Message %q", st, msg)
			}
		})
	}
	// A server that is not there is UNAVAILABLE, an answer like any.
	resp, _, err := post(t, c, &server{addr: "127.0.0.1:1"}, "/t.S/Echo", nil, nil)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("no server: %v, %v; want 503", resp, err)
	}
}

func TestDeadline(t *testing.T) {
	s := startServer(t)
	const timeout = 2 * time.Second
	c, _ := newClient(t, 1, timeout)
	if _, _, err := post(t, c, s, "/t.S/Echo", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The client's timeout is the call's deadline, and the call that
	// outlives it is the client's error, as for HTTP, not an answer.
	_, _, err := post(t, c, s, "/t.S/Block", nil, nil)
	var uerr interface{ Timeout() bool }
	if !errors.As(err, &uerr) || !uerr.Timeout() {
		t.Errorf("blocked call: %v, want the client's timeout", err)
	}
	// The server's call ends too: by its deadline, or by the client's
	// cancellation when that reaches it first.
	if err := <-s.blocked; !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		t.Errorf("the blocked call ended with %v, want its deadline", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.deadlines) != 2 || s.deadlines[0] <= 0 || s.deadlines[0] > timeout {
		t.Errorf("the calls arrived with deadlines %v, want within %s", s.deadlines, timeout)
	}
}

func TestConnections(t *testing.T) {
	s := startServer(t)
	c, tr := newClient(t, 3, 10*time.Second)
	for range 6 {
		if _, _, err := post(t, c, s, "/t.S/Echo", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	if len(s.peers) != 3 {
		t.Errorf("calls came over %d connections, want 3", len(s.peers))
	}
	s.mu.Unlock()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := post(t, c, s, "/t.S/Echo", nil, nil); err == nil {
		t.Error("a call after Close went through")
	}
}
