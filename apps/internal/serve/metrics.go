package serve

import (
	"log/slog"
	"net/http"
	"time"

	"crudbench/apps/internal/admin"
)

// startMetrics serves admin.MetricsOnly(metrics) on addr (METRICS_ADDR) in
// the background, logs "metrics listening" with the bound address, and
// returns the function that stops it.
//
// The address may face the network, so every phase of a request is
// bounded: a scrape is small and quick, and a slow or idle client must not
// hold a connection open.
func startMetrics(logger *slog.Logger, addr string, metrics http.Handler) (stop func(), err error) {
	return startAside(logger, "metrics", addr, &http.Server{
		Handler:           admin.MetricsOnly(metrics),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       5 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       120 * time.Second,
	})
}
