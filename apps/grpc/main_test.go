package main

// The tests live in package main because a command cannot be imported; they
// still talk to the app only over real gRPC (NewServer on a loopback
// listener, or the built binary) with grpc-go's client, against real
// PostgreSQL databases from dbtest.

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/db"
	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// testSecret signs the tokens of the test servers.
var testSecret = []byte("grpc-tests-secret-0123456789")

// testApp is the app served on a loopback listener over a database of its
// own, a client connected to it, and ready-made tokens for the two roles.
type testApp struct {
	conn   *grpc.ClientConn
	staff  crudbenchv1.StaffClient
	store  *db.Store
	tokens *auth.Tokens
	viewer string
	editor string
}

// newApp serves the app on a fresh copy of the seeded database.
func newApp(t testing.TB) *testApp {
	t.Helper()
	return newAppWith(t, dbtest.Store(t, dbtest.Seeded(t), db.Options{}), db.DefaultTimeout, io.Discard)
}

// newAppWith serves the app on store with the given request deadline,
// writing its log to logs.
func newAppWith(t testing.TB, store *db.Store, timeout time.Duration, logs io.Writer) *testApp {
	t.Helper()
	tokens := auth.NewTokens(testSecret, time.Hour)
	srv, _ := NewServer(slog.New(slog.NewJSONHandler(logs, nil)), store, tokens, timeout, metrics.New(store.PoolStats))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	a := &testApp{conn: conn, staff: crudbenchv1.NewStaffClient(conn), store: store, tokens: tokens}
	a.viewer = issue(t, tokens, 1, "viewer", auth.RoleViewer)
	a.editor = issue(t, tokens, 2, "editor", auth.RoleEditor)
	return a
}

func issue(t testing.TB, tokens *auth.Tokens, id int64, name string, role auth.Role) string {
	t.Helper()
	tok, _, err := tokens.Issue(id, name, role)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// as returns a context whose calls carry token as their bearer token, or
// none when token is empty; it ends with the test.
func as(t testing.TB, token string) context.Context {
	ctx := t.Context()
	if token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

// wantCode fails unless err is a status with code want.
func wantCode(t testing.TB, what string, err error, want codes.Code) *status.Status {
	t.Helper()
	s, ok := status.FromError(err)
	if !ok {
		t.Fatalf("%s: %v, not a status", what, err)
	}
	if s.Code() != want {
		t.Fatalf("%s: %s %q, want %s", what, s.Code(), s.Message(), want)
	}
	return s
}

// violations returns the fields a BadRequest detail of s names.
func violations(s *status.Status) []string {
	var fields []string
	for _, d := range s.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.GetFieldViolations() {
				fields = append(fields, v.GetField())
			}
		}
	}
	return fields
}

// retryInfo reports whether s carries a RetryInfo detail with a delay.
func retryInfo(s *status.Status) bool {
	for _, d := range s.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay().AsDuration() > 0 {
			return true
		}
	}
	return false
}

// waitForPerson waits up to 15 s for the app to serve a person again after
// the database came back.
func (a *testApp) waitForPerson(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, err := a.staff.GetPerson(as(t, a.viewer), &crudbenchv1.GetPersonRequest{Id: 1})
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %v 15 s after the database came back", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
