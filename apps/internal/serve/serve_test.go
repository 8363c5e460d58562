package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"crudbench/apps/internal/serve"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs serve.Run on ":0" in the background and returns the base URL
// and a channel with Run's result.
func start(t *testing.T, ctx context.Context, logger *slog.Logger, h http.Handler, opts serve.Options) (string, <-chan error) {
	t.Helper()
	bound := make(chan net.Addr, 1)
	opts.Ready = func(addr net.Addr) { bound <- addr }
	done := make(chan error, 1)
	go func() { done <- serve.Run(ctx, logger, "127.0.0.1:0", h, opts) }()
	select {
	case addr := <-bound:
		return "http://" + addr.String(), done
	case err := <-done:
		t.Fatalf("Run returned before it was ready: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("Run not ready after 5s")
	}
	return "", nil
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return 5s after shutdown began")
		return nil
	}
}

func TestRunServesAndStops(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") })
	url, done := start(t, ctx, logger, h, serve.Options{})

	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" {
		t.Errorf("body = %q, want hello", body)
	}
	if !strings.Contains(logs.String(), `"msg":"listening","addr":"`+strings.TrimPrefix(url, "http://")+`"`) {
		t.Errorf("log does not show the bound address %s:\n%s", url, logs.String())
	}

	cancel()
	if err := wait(t, done); err != nil {
		t.Errorf("Run after cancel = %v, want nil", err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("server still answers after Run returned")
	}
}

func TestRunFinishesInFlightRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "finished")
	})
	url, done := start(t, ctx, slog.New(slog.DiscardHandler), h, serve.Options{})

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{string(b), err}
	}()

	<-started
	cancel()
	// Shutdown must wait for the handler rather than return.
	select {
	case err := <-done:
		t.Fatalf("Run returned %v while a request was in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)

	if r := <-got; r.err != nil || r.body != "finished" {
		t.Errorf("in-flight request = %q, %v; want finished", r.body, r.err)
	}
	if err := wait(t, done); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

func TestRunShutdownTimeout(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
	})
	url, done := start(t, ctx, slog.New(slog.DiscardHandler), h, serve.Options{ShutdownTimeout: 50 * time.Millisecond})
	go func() {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	if err := wait(t, done); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run with a stuck request = %v, want a deadline error", err)
	}
}

func TestRunListenError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = serve.Run(context.Background(), slog.New(slog.DiscardHandler), ln.Addr().String(), http.NotFoundHandler(), serve.Options{})
	if err == nil {
		t.Error("Run on a busy port returned nil")
	}
}

func TestLogRequests(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "short and stout")
	})

	t.Run("off above debug", func(t *testing.T) {
		logger := slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
		mux := http.NewServeMux()
		if got := serve.LogRequests(logger, mux); got != http.Handler(mux) {
			t.Error("LogRequests wrapped the handler although debug is off")
		}
	})

	t.Run("debug", func(t *testing.T) {
		var logs syncBuffer
		logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		srv := httptest.NewServer(serve.LogRequests(logger, h))
		defer srv.Close()
		resp, err := http.Get(srv.URL + "/pot?x=1")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()

		var entry struct {
			Msg, Method, Path string
			Status            int
			Bytes             int64
			Duration          *int64
		}
		if err := json.Unmarshal([]byte(logs.String()), &entry); err != nil {
			t.Fatalf("log %q: %v", logs.String(), err)
		}
		if entry.Msg != "request" || entry.Method != "GET" || entry.Path != "/pot" ||
			entry.Status != http.StatusTeapot || entry.Bytes != int64(len("short and stout")) || entry.Duration == nil {
			t.Errorf("log entry = %s", logs.String())
		}
	})
}

func TestRecover(t *testing.T) {
	const secret = "pq: password authentication failed for user postgres"
	panicky := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic(secret) })
	problem := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"status":500,"title":"Internal Server Error"}`)
	}

	for _, tt := range []struct {
		name     string
		onPanic  func(http.ResponseWriter, *http.Request)
		wantBody string
	}{
		{"app body", problem, `{"status":500,"title":"Internal Server Error"}`},
		{"default body", nil, "Internal Server Error\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs syncBuffer
			logger := slog.New(slog.NewJSONHandler(&logs, nil))
			srv := httptest.NewServer(serve.Recover(logger, tt.onPanic, panicky))
			defer srv.Close()

			resp, err := http.Get(srv.URL + "/boom")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusInternalServerError || string(body) != tt.wantBody {
				t.Errorf("response = %d %q, want 500 %q", resp.StatusCode, body, tt.wantBody)
			}
			if strings.Contains(string(body), "password") {
				t.Errorf("panic message reached the client: %q", body)
			}
			if l := logs.String(); !strings.Contains(l, secret) || !strings.Contains(l, `"stack":"goroutine`) {
				t.Errorf("log lacks the panic and its stack:\n%s", l)
			}
		})
	}
}

func TestSignalContext(t *testing.T) {
	ctx, stop := serve.SignalContext(context.Background())
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("context not cancelled 5s after SIGTERM")
	}
}

// TestRecord: a response is wrapped once however many middlewares record
// it, and the status is net/http's implicit 200 until one is written.
func TestRecord(t *testing.T) {
	w := httptest.NewRecorder()
	rec := serve.Record(w)
	if again := serve.Record(rec); again != rec {
		t.Error("Record wrapped a Recorder again")
	}
	if got := rec.Status(); got != http.StatusOK {
		t.Errorf("status before any write = %d, want 200", got)
	}
	rec.WriteHeader(http.StatusTeapot)
	rec.WriteHeader(http.StatusOK)
	io.WriteString(rec, "tea")
	if rec.Status() != http.StatusTeapot || rec.Bytes() != 3 || w.Code != http.StatusTeapot {
		t.Errorf("recorded %d and %d bytes (sent %d), want 418 and 3 bytes", rec.Status(), rec.Bytes(), w.Code)
	}
}
