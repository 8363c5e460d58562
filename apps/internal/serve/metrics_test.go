package serve_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"crudbench/apps/internal/serve"
)

// TestRunMetricsAddr: with MetricsAddr, the Metrics handler answers there
// (the same handler as on the admin address, not a copy), under the apps'
// header budget; every other path, pprof's included, is 404, and the server
// stops with the app.
func TestRunMetricsAddr(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var scrapes atomic.Int64
	_, done := start(t, ctx, logger, http.NotFoundHandler(), serve.Options{
		DebugAddr:   "127.0.0.1:0",
		MetricsAddr: "127.0.0.1:0",
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintf(w, "scrape %d", scrapes.Add(1))
		}),
	})
	debug := "http://" + loggedAddr(t, logs.String(), "debug listening")
	metrics := "http://" + loggedAddr(t, logs.String(), "metrics listening")
	if strings.Index(logs.String(), `"metrics listening"`) > strings.Index(logs.String(), `"listening"`) {
		t.Errorf("\"metrics listening\" is logged after \"listening\":\n%s", logs.String())
	}

	if status, body := get(t, debug+"/metrics"); status != 200 || string(body) != "scrape 1" {
		t.Errorf("admin /metrics: %d %q, want scrape 1", status, body)
	}
	if status, body := get(t, metrics+"/metrics"); status != 200 || string(body) != "scrape 2" {
		t.Errorf("metrics address /metrics: %d %q, want scrape 2 (the admin address's handler)", status, body)
	}
	c := dialRaw(t, metrics)
	c.send("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", serve.MaxHeaderBytes+4096) + "\r\n\r\n")
	if resp, _ := c.answer(); resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("the metrics address answers a header past the budget with %d, want 431", resp.StatusCode)
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/profile?seconds=1", "/debug/pprof/cmdline", "/", "/metrics/x"} {
		if status, _ := get(t, metrics+path); status != http.StatusNotFound {
			t.Errorf("the metrics address answers %s with %d, want 404", path, status)
		}
	}

	cancel()
	if err := wait(t, done); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
	if resp, err := http.Get(metrics + "/metrics"); err == nil {
		resp.Body.Close()
		t.Error("the metrics server still answers after Run returned")
	}
}

// TestRunMetricsAddrErrors: a metrics address that cannot be bound, or one
// with nothing to serve, is an error before the app listens at all.
func TestRunMetricsAddrErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, tc := range []struct {
		name    string
		opts    serve.Options
		wantErr string
	}{
		{"busy", serve.Options{MetricsAddr: ln.Addr().String(), Metrics: http.NotFoundHandler()}, "metrics address"},
		{"no handler", serve.Options{MetricsAddr: "127.0.0.1:0"}, "Metrics handler"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			err := serve.Run(context.Background(), slog.New(slog.NewJSONHandler(&logs, nil)), "127.0.0.1:0", http.NotFoundHandler(), tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Run = %v, want an error naming the %s", err, tc.wantErr)
			}
			if strings.Contains(logs.String(), `"listening"`) {
				t.Errorf("the app listened anyway:\n%s", logs.String())
			}
		})
	}
}
