// Package health answers the liveness and readiness probes every crudbench
// app serves: /healthz (the process answers; also the bench's no-database
// control) and /readyz (the database answers).
package health

import (
	"context"
	"net/http"
	"time"
)

// pingTimeout keeps /readyz answering promptly when the database hangs.
const pingTimeout = 2 * time.Second

// Live answers 200 "ok" (text/plain) without touching the database; serve it
// at GET /healthz.
func Live() http.Handler {
	body := []byte("ok")
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		w.Write(body)
	})
}

// Pinger is what Ready needs; the database store's Ping satisfies it.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Ready pings the database with a 2 s timeout and answers 200
// {"status":"ready"} or 503 {"status":"unavailable"} (application/json).
// The ping error is not shown: internals never reach a client.
func Ready(p Pinger) http.Handler {
	ready := []byte(`{"status":"ready"}`)
	unavailable := []byte(`{"status":"unavailable"}`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), pingTimeout)
		defer cancel()
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		if err := p.Ping(ctx); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write(unavailable)
			return
		}
		w.Write(ready)
	})
}
