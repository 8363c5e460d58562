package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/apps/internal/apptest"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// slowTimeout is the request deadline of TestSlowRequests: long enough
// for several trickled bytes to arrive before it, so that a bound the
// bytes kept pushing back (an idle timeout) would not end the stream.
const slowTimeout = 2 * time.Second

// TestSlowRequests holds a stream's request back, as a slow-loris client
// does: a message sent a byte every 250 ms, without a deadline and with a
// client deadline far beyond the server's, and a stream of headers only.
// The server ends each at its request deadline, counted from the
// stream's start, with DEADLINE_EXCEEDED: not before it (the request never
// came), and within StallMargin after it on a loaded machine.
func TestSlowRequests(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, dbtest.Store(t, dbtest.Seeded(t), db.Options{}), slowTimeout, io.Discard)
	login := grpcMessage(t, &crudbenchv1.LoginRequest{Username: "editor", Password: strings.Repeat("x", 100)})
	for _, tt := range []struct {
		name  string
		extra []string // header fields after gRPC's own
		body  []byte   // trickled, never all of it before the deadline
	}{
		{"trickled", nil, login},
		{"trickled under a client deadline of a minute", []string{"grpc-timeout", "60S"}, login},
		{"headers only", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := dialH2(t, a.conn.Target())
			start := time.Now()
			c.open(1, crudbenchv1.Staff_Login_FullMethodName, tt.extra...)
			c.trickle(1, tt.body, 250*time.Millisecond)
			end := c.waitEnd(1, slowTimeout+apptest.StallMargin)
			took := time.Since(start)
			t.Logf("ended after %s by %+v", took, end)
			if took < slowTimeout {
				t.Errorf("ended after %s, before the %s deadline", took, slowTimeout)
			}
			if end.status != fmt.Sprint(int(codes.DeadlineExceeded)) {
				t.Errorf("ended by %+v, want trailers with DEADLINE_EXCEEDED", end)
			}
		})
	}
}

// TestConcurrentStreams checks that the server advertises 100 streams per
// connection and refuses the 101st while the first 100 are open (they
// wait for requests that never come, far inside their deadline).
func TestConcurrentStreams(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, dbtest.Store(t, dbtest.Seeded(t), db.Options{}), time.Minute, io.Discard)
	c := dialH2(t, a.conn.Target())
	if got, ok := c.settings[http2.SettingMaxConcurrentStreams]; !ok || got != 100 {
		t.Fatalf("SETTINGS_MAX_CONCURRENT_STREAMS %d (sent: %v), want 100", got, ok)
	}
	for i := range uint32(100) {
		c.open(2*i+1, crudbenchv1.Staff_Login_FullMethodName)
	}
	const past = 2*100 + 1
	c.open(past, crudbenchv1.Staff_Login_FullMethodName)
	if end := c.waitEnd(past, 10*time.Second); end.reset != http2.ErrCodeRefusedStream {
		t.Errorf("stream 101 ended by %+v, want RST_STREAM REFUSED_STREAM", end)
	}
}

// TestMetadataBudget holds a call's metadata to the HTTP apps' header
// budget: 100 entries and 64 KiB. More entries are RESOURCE_EXHAUSTED; a
// header block over 64 KiB (sent frame by frame: grpc-go's client will not
// send more than the server's SETTINGS_MAX_HEADER_LIST_SIZE) is never
// served, the stream reset or the connection closed; a call inside the
// budget is served.
func TestMetadataBudget(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	health := healthpb.NewHealthClient(a.conn)
	check := func(md metadata.MD) error {
		_, err := health.Check(metadata.NewOutgoingContext(t.Context(), md), &healthpb.HealthCheckRequest{})
		return err
	}
	entries := func(n int) metadata.MD {
		md := metadata.MD{}
		for i := range n {
			md.Append(fmt.Sprintf("x-entry-%d", i), "v")
		}
		return md
	}

	t.Run("within the budget", func(t *testing.T) {
		md := entries(90)
		md.Append("x-large", strings.Repeat("v", 32<<10))
		if err := check(md); err != nil {
			t.Errorf("90 entries and a 32 KiB value: %v", err)
		}
	})
	t.Run("1000 entries", func(t *testing.T) {
		wantCode(t, "1000 entries", check(entries(1000)), codes.ResourceExhausted)
	})
	t.Run("1 MiB value", func(t *testing.T) {
		c := dialH2(t, a.conn.Target())
		if got := c.settings[http2.SettingMaxHeaderListSize]; got != 64<<10 {
			t.Errorf("SETTINGS_MAX_HEADER_LIST_SIZE %d, want 64 KiB", got)
		}
		c.call(1, "/grpc.health.v1.Health/Check", &healthpb.HealthCheckRequest{}, "x-large", strings.Repeat("v", 1<<20))
		end := c.waitEnd(1, 10*time.Second)
		t.Logf("ended by %+v", end)
		if end.reset == 0 && end.gone == "" {
			t.Errorf("ended by %+v, want the stream reset or the connection closed", end)
		}
		if _, err := health.Check(t.Context(), &healthpb.HealthCheckRequest{}); err != nil {
			t.Errorf("another connection after it: %v", err)
		}
	})
}
