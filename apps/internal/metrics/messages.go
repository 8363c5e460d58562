package metrics

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// newMessageDuration is the amqp app's counterpart of the HTTP request
// histogram: the same buckets, labelled by operation (the request
// message's type) and the reply's status code.
func newMessageDuration() *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "amqp_request_duration_seconds",
		Help:    "Time from the app receiving a request message to its reply being ready, by operation and status.",
		Buckets: durationBuckets,
	}, []string{"operation", "status"})
}

// ObserveMessage records one answered request message: its operation
// (Unmatched for a type that names none, so that the label set stays
// bounded), the reply's status (200, 404, 503) and how long it took.
func (m *Metrics) ObserveMessage(operation string, status int, took time.Duration) {
	m.messages.WithLabelValues(operation, strconv.Itoa(status)).Observe(took.Seconds())
}
