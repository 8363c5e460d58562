package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"crudbench/apps/internal/serve"
	"crudbench/db"
)

func TestRequestID(t *testing.T) {
	var seen []string
	h := serve.RequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, w.Header().Get(serve.RequestIDHeader))
	}))
	for _, tt := range []struct {
		name, sent string
		kept       bool
	}{
		{"none sent", "", false},
		{"usable", "lb-7f3a:42_x.1", true},
		{"too long", strings.Repeat("a", 65), false},
		{"spaces", "a b", false},
		{"newline", "a\nlevel=ERROR", false},
		{"quote", `a"b`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			if tt.sent != "" {
				r.Header.Set(serve.RequestIDHeader, tt.sent)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			got := w.Header().Get(serve.RequestIDHeader)
			if got == "" || got != seen[len(seen)-1] {
				t.Fatalf("response ID %q, handler saw %q", got, seen[len(seen)-1])
			}
			if (got == tt.sent) != tt.kept {
				t.Errorf("sent %q, got %q; kept = %v, want %v", tt.sent, got, got == tt.sent, tt.kept)
			}
		})
	}
	// Made-up IDs differ from each other.
	w1, w2 := httptest.NewRecorder(), httptest.NewRecorder()
	h.ServeHTTP(w1, httptest.NewRequest("GET", "/", nil))
	h.ServeHTTP(w2, httptest.NewRequest("GET", "/", nil))
	if a, b := w1.Header().Get(serve.RequestIDHeader), w2.Header().Get(serve.RequestIDHeader); a == b {
		t.Errorf("two requests got the same ID %q", a)
	}
}

// TestDeadline: a handler that waits on its context, as a database call on
// a hung server does, is released at the deadline, not before.
func TestDeadline(t *testing.T) {
	const d = 300 * time.Millisecond
	h := serve.Deadline(d, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // what a database call waiting on a hung server sees
		if !errors.Is(r.Context().Err(), context.DeadlineExceeded) {
			t.Errorf("context ended with %v, want the deadline", r.Context().Err())
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	start := time.Now()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if took := time.Since(start); took < d || took > d+5*time.Second {
		t.Errorf("the handler was released after %s, want at its %s deadline", took, d)
	}
}

func TestLimitBody(t *testing.T) {
	const max = 10
	tooLarge := func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(w, "app's own 413")
	}
	h := serve.LimitBody(max, tooLarge, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			tooLarge(w, r)
			return
		}
		io.WriteString(w, "read "+string(b))
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	for _, tt := range []struct {
		name    string
		body    io.Reader
		chunked bool
		status  int
		want    string
	}{
		{"no body", nil, false, 200, "read "},
		{"at the limit", strings.NewReader("0123456789"), false, 200, "read 0123456789"},
		{"announced over the limit", strings.NewReader("0123456789x"), false, 413, "app's own 413"},
		{"chunked at the limit", strings.NewReader("0123456789"), true, 200, "read 0123456789"},
		{"chunked over the limit", strings.NewReader("0123456789x"), true, 413, "app's own 413"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := tt.body
			if tt.chunked {
				body = io.MultiReader(body) // hides the length: sent chunked
			}
			req, err := http.NewRequest("POST", srv.URL, body)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || string(got) != tt.want {
				t.Errorf("got %d %q, want %d %q", resp.StatusCode, got, tt.status, tt.want)
			}
		})
	}
}

func TestLogError(t *testing.T) {
	for _, tt := range []struct {
		name      string
		err       error
		wantLevel string // "" when nothing is logged
		wantMsg   string
		wantError string
		wantCause string
	}{
		{"internal", &db.Error{Code: db.EINTERNAL, Message: "internal error", Err: errors.New(`relation "secret" does not exist`)},
			"ERROR", "internal error", "internal: internal error", `relation "secret" does not exist`},
		{"foreign", errors.New("not a store error"), "ERROR", "internal error", "internal: internal error", "not a store error"},
		{"unavailable", &db.Error{Code: db.EUNAVAILABLE, Message: "the database did not answer in time", Err: context.DeadlineExceeded},
			"WARN", "database unavailable", "unavailable: the database did not answer in time", "context deadline exceeded"},
		{"invalid", &db.Error{Code: db.EINVALID, Message: "invalid input"}, "", "", "", ""},
		{"not found", db.Errorf(db.ENOTFOUND, "person 9 not found"), "", "", "", ""},
		{"conflict", db.Errorf(db.ECONFLICT, "stale"), "", "", "", ""},
		{"unauthorized", db.Errorf(db.EUNAUTHORIZED, "bad credentials"), "", "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&logs, nil))
			h := serve.RequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				serve.LogError(r.Context(), logger, db.ErrorOf(tt.err), slog.String("field", "person"))
			}))
			r := httptest.NewRequest("GET", "/api/persons/9", nil)
			r.Header.Set(serve.RequestIDHeader, "req-1")
			h.ServeHTTP(httptest.NewRecorder(), r)
			if tt.wantLevel == "" {
				if logs.Len() > 0 {
					t.Errorf("a client's error was logged: %s", logs.String())
				}
				return
			}
			var entry map[string]any
			if err := json.Unmarshal(logs.Bytes(), &entry); err != nil {
				t.Fatalf("log %q: %v", logs.String(), err)
			}
			want := map[string]any{
				"level": tt.wantLevel, "msg": tt.wantMsg, "request_id": "req-1",
				"method": "GET", "path": "/api/persons/9", "field": "person", "error": tt.wantError, "cause": tt.wantCause,
			}
			for k, v := range want {
				if entry[k] != v {
					t.Errorf("log %s = %v, want %v (%s)", k, entry[k], v, logs.String())
				}
			}
		})
	}
}

// TestStack checks the order of the shared middleware through what each
// layer leaves for the others: the handler sees a deadline and a limited
// body, a panic is answered by the app's writer and logged with the request
// ID, and request logging (debug) names the request.
func TestStack(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	const timeout = time.Minute
	routes := http.NewServeMux()
	routes.HandleFunc("POST /echo", func(w http.ResponseWriter, r *http.Request) {
		deadline, ok := r.Context().Deadline()
		if !ok || time.Until(deadline) > timeout {
			t.Errorf("the handler's context has deadline %v (%v), want within %s", deadline, ok, timeout)
		}
		if _, err := io.ReadAll(r.Body); err != nil {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		io.WriteString(w, "ok")
	})
	routes.HandleFunc("GET /panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	srv := httptest.NewServer(serve.Stack{
		Logger:  logger,
		Timeout: timeout,
		OnPanic: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, "app's own 500")
		},
		OnTooLarge: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			io.WriteString(w, "app's own 413")
		},
	}.Wrap(routes))
	defer srv.Close()

	send := func(method, path string, body io.Reader) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, body)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}

	resp, body := send("POST", "/echo", strings.NewReader("hello"))
	if resp.StatusCode != 200 || body != "ok" || resp.Header.Get(serve.RequestIDHeader) == "" {
		t.Errorf("echo: %d %q, request ID %q", resp.StatusCode, body, resp.Header.Get(serve.RequestIDHeader))
	}
	id := resp.Header.Get(serve.RequestIDHeader)
	if !strings.Contains(logs.String(), `"msg":"request","request_id":"`+id+`","method":"POST","path":"/echo","status":200`) {
		t.Errorf("the request log does not name request %s:\n%s", id, logs.String())
	}

	resp, body = send("POST", "/echo", bytes.NewReader(make([]byte, serve.MaxBodyBytes+1)))
	if resp.StatusCode != http.StatusRequestEntityTooLarge || body != "app's own 413" {
		t.Errorf("body over MaxBodyBytes: %d %q", resp.StatusCode, body)
	}

	resp, body = send("GET", "/panic", nil)
	id = resp.Header.Get(serve.RequestIDHeader)
	if resp.StatusCode != http.StatusInternalServerError || body != "app's own 500" || id == "" {
		t.Errorf("panic: %d %q, request ID %q", resp.StatusCode, body, id)
	}
	if !strings.Contains(logs.String(), `"msg":"panic","request_id":"`+id+`"`) {
		t.Errorf("the panic log does not name request %s:\n%s", id, logs.String())
	}
}

// BenchmarkStack measures what the shared middleware adds to a request at
// the default log level, beside the same handler bare: the apps' read
// benchmarks are too noisy on a shared machine to show so small a cost.
func BenchmarkStack(b *testing.B) {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{
		{"bare", ok},
		{"stack", serve.Stack{Logger: logger, Timeout: 5 * time.Second, OnTooLarge: func(http.ResponseWriter, *http.Request) {}}.Wrap(ok)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/api/persons/1", nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				bc.h.ServeHTTP(w, r)
			}
		})
	}
}
