package health_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"crudbench/apps/internal/health"
)

// pingFunc adapts a function to health.Pinger.
type pingFunc func(ctx context.Context) error

func (f pingFunc) Ping(ctx context.Context) error { return f(ctx) }

func get(t *testing.T, h http.Handler) (status int, contentType, body string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

func TestLive(t *testing.T) {
	status, ct, body := get(t, health.Live())
	if status != http.StatusOK || ct != "text/plain; charset=utf-8" || body != "ok" {
		t.Errorf("Live = %d %q %q, want 200 text/plain \"ok\"", status, ct, body)
	}
}

func TestReady(t *testing.T) {
	tests := []struct {
		name       string
		ping       pingFunc
		wantStatus int
		wantBody   string
	}{
		{
			name: "database answers",
			ping: func(ctx context.Context) error {
				// The ping must be bounded so /readyz answers even when the
				// database hangs.
				deadline, ok := ctx.Deadline()
				if !ok || time.Until(deadline) > 2*time.Second {
					return errors.New("ping without a 2s deadline")
				}
				return nil
			},
			wantStatus: http.StatusOK,
			wantBody:   `{"status":"ready"}`,
		},
		{
			name:       "database down",
			ping:       func(context.Context) error { return errors.New("dial tcp 10.0.0.1:5432: connection refused") },
			wantStatus: http.StatusServiceUnavailable,
			wantBody:   `{"status":"unavailable"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, ct, body := get(t, health.Ready(tt.ping))
			if status != tt.wantStatus || ct != "application/json" || body != tt.wantBody {
				t.Errorf("Ready = %d %q %q, want %d application/json %q", status, ct, body, tt.wantStatus, tt.wantBody)
			}
		})
	}
}
