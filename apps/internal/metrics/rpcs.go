package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// newRPCDuration is the gRPC app's counterpart of the HTTP request
// histogram: the same buckets, labelled by full method name and status
// code name (grpc-go's ecosystem names), so that one dashboard reads both.
func newRPCDuration() *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "grpc_server_handling_seconds",
		Help:    "Time from the server receiving a unary call to the handler returning, by method and status code.",
		Buckets: durationBuckets,
	}, []string{"grpc_method", "grpc_code"})
}

// ObserveRPC records one unary call: its full method name
// ("/crudbench.v1.Staff/GetPerson"), its status code as grpc-go spells it ("OK",
// "NotFound", as go-grpc-prometheus labels it) and how long it took. The method names are the server's
// registered ones (grpc-go answers unknown methods before any
// interceptor), so the label set is bounded.
func (m *Metrics) ObserveRPC(method, code string, took time.Duration) {
	m.rpcs.WithLabelValues(method, code).Observe(took.Seconds())
}
