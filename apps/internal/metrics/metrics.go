// Package metrics gives an app its Prometheus metrics: the process and Go
// runtime collectors, a request-duration histogram per route pattern and
// status class (per method and status code for gRPC, per operation and status for AMQP), and the database pool's statistics. They live in a registry
// of the app's own, not Prometheus's global default, so that nothing a
// library registers behind the app's back reaches a scrape, and so that two
// apps in one test binary do not collide. The handler is served on the
// admin address only (package admin), never on the public port.
package metrics

import (
	"net/http"
	"regexp"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"crudbench/db"
)

// Metrics is one app's registry and the instruments its middleware records
// into.
type Metrics struct {
	registry *prometheus.Registry
	duration *prometheus.HistogramVec
	rpcs     *prometheus.HistogramVec
	messages *prometheus.HistogramVec
}

// New returns an app's metrics with pool (usually a Store's PoolStats)
// read at every scrape.
func New(pool func() db.PoolStats) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		duration: newDuration(),
		rpcs:     newRPCDuration(),
		messages: newMessageDuration(),
	}
	m.registry.MustRegister(
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(gcPauses)),
		m.duration,
		m.rpcs,
		m.messages,
		poolCollector{stats: pool},
	)
	return m
}

// gcPauses adds to the Go collector's defaults the runtime's histogram of
// its stop-the-world pauses for the garbage collector
// (go_sched_pauses_total_gc_seconds), which the bench reads for the
// pauses behind a run's tail; the default summary has only the recent
// pauses' quantiles, which no window can be taken of.
var gcPauses = collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/sched/pauses/total/gc:seconds$`)}

// Handler serves the metrics in Prometheus's text (or negotiated) format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
