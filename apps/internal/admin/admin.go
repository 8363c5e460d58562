// Package admin holds the endpoints an app serves on its admin address
// (DEBUG_ADDR) and never on its public port: net/http/pprof, so that the
// bench can ask a running app where its CPU goes, and the app's Prometheus
// metrics. The admin address is loopback only (config refuses anything
// else), because a profile shows the program's internals and costs CPU
// whenever someone asks for one. MetricsOnly is what the metrics address
// (METRICS_ADDR) serves instead: the metrics and nothing else, so that it
// may face the network.
package admin

import (
	"net/http"
	"net/http/pprof"
)

// Handler returns the admin endpoints: the pprof index and named profiles
// under /debug/pprof/, a CPU profile at /debug/pprof/profile?seconds=N, an
// execution trace at /debug/pprof/trace, and metrics (the app's Prometheus
// handler) at /metrics unless it is nil. They are registered on a mux of
// their own: http.DefaultServeMux, where net/http/pprof also registers
// itself, is served by no app.
func Handler(metrics http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	if metrics != nil {
		mux.Handle("/metrics", metrics)
	}
	return mux
}

// MetricsOnly returns a handler that serves metrics (the app's Prometheus
// handler, the same one Handler serves, so one registry answers on both
// addresses) at /metrics and 404 at every other path, pprof's included.
func MetricsOnly(metrics http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", metrics)
	return mux
}
