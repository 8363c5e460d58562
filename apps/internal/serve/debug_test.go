package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"crudbench/apps/internal/serve"
)

// loggedAddr finds the bound address in Run's log line msg ("debug
// listening", "metrics listening").
func loggedAddr(t *testing.T, logs, msg string) string {
	t.Helper()
	for line := range strings.Lines(logs) {
		var entry struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == msg {
			return entry.Addr
		}
	}
	t.Fatalf("no %q line in the log:\n%s", msg, logs)
	return ""
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// TestRunDebugAddr: with DebugAddr, pprof and the Metrics handler answer
// there and only there, and stop with the app.
func TestRunDebugAddr(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, done := start(t, ctx, logger, http.NotFoundHandler(), serve.Options{
		DebugAddr: "127.0.0.1:0",
		Metrics:   http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "metrics") }),
	})
	debug := "http://" + loggedAddr(t, logs.String(), "debug listening")

	if status, body := get(t, debug+"/debug/pprof/"); status != 200 || !bytes.Contains(body, []byte("goroutine")) {
		t.Errorf("pprof index: %d %.200q", status, body)
	}
	// A CPU profile is gzipped protobuf: it starts with gzip's magic bytes.
	if status, body := get(t, debug+"/debug/pprof/profile?seconds=1"); status != 200 || !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		t.Errorf("1 s CPU profile: %d %.200q", status, body)
	}
	if status, body := get(t, debug+"/metrics"); status != 200 || string(body) != "metrics" {
		t.Errorf("admin /metrics: %d %.200q, want the Metrics handler's answer", status, body)
	}
	for _, path := range []string{"/debug/pprof/", "/metrics"} {
		if status, _ := get(t, url+path); status != http.StatusNotFound {
			t.Errorf("the public address answers %s with %d, want 404", path, status)
		}
	}

	cancel()
	if err := wait(t, done); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
	if resp, err := http.Get(debug + "/debug/pprof/"); err == nil {
		resp.Body.Close()
		t.Error("the admin server still answers after Run returned")
	}
}

// TestRunDebugAddrBusy: an admin address that cannot be bound is an error
// before the app listens at all.
func TestRunDebugAddrBusy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var logs syncBuffer
	err = serve.Run(context.Background(), slog.New(slog.NewJSONHandler(&logs, nil)), "127.0.0.1:0", http.NotFoundHandler(),
		serve.Options{DebugAddr: ln.Addr().String()})
	if err == nil || !strings.Contains(err.Error(), "debug address") {
		t.Errorf("Run with a busy debug address = %v, want an error naming it", err)
	}
	if strings.Contains(logs.String(), `"listening"`) {
		t.Errorf("the app listened although its debug address was busy:\n%s", logs.String())
	}
}
