package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"crudbench/db"
)

// The pool's metrics, named after the pgxpool statistics they report.
var (
	acquiredConns   = prometheus.NewDesc("pgxpool_acquired_conns", "Connections in use by a request now.", nil, nil)
	idleConns       = prometheus.NewDesc("pgxpool_idle_conns", "Open connections waiting for a request now.", nil, nil)
	totalConns      = prometheus.NewDesc("pgxpool_total_conns", "All open connections now.", nil, nil)
	maxConns        = prometheus.NewDesc("pgxpool_max_conns", "The pool's size (DB_MAX_CONNS).", nil, nil)
	acquireCount    = prometheus.NewDesc("pgxpool_acquire_count_total", "Connections handed out since the pool opened.", nil, nil)
	acquireDuration = prometheus.NewDesc("pgxpool_acquire_duration_seconds_total", "Time all acquisitions spent waiting for a connection, summed.", nil, nil)
)

// poolCollector reads the pool's statistics at each scrape rather than
// keeping gauges up to date on every query: the pool counts anyway, and a
// scrape a second is far rarer than a query.
type poolCollector struct {
	stats func() db.PoolStats
}

// Describe implements prometheus.Collector.
func (poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{acquiredConns, idleConns, totalConns, maxConns, acquireCount, acquireDuration} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	ch <- prometheus.MustNewConstMetric(acquiredConns, prometheus.GaugeValue, float64(s.AcquiredConns))
	ch <- prometheus.MustNewConstMetric(idleConns, prometheus.GaugeValue, float64(s.IdleConns))
	ch <- prometheus.MustNewConstMetric(totalConns, prometheus.GaugeValue, float64(s.TotalConns))
	ch <- prometheus.MustNewConstMetric(maxConns, prometheus.GaugeValue, float64(s.MaxConns))
	ch <- prometheus.MustNewConstMetric(acquireCount, prometheus.CounterValue, float64(s.AcquireCount))
	ch <- prometheus.MustNewConstMetric(acquireDuration, prometheus.CounterValue, s.AcquireDuration.Seconds())
}
