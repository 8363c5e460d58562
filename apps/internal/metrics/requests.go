package metrics

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"crudbench/apps/internal/serve"
)

// Unmatched is the route label of a request no route matched (a 404 or a
// 405 from the router): every such path shares it, so that scanners and
// typos cannot grow the label set without bound.
const Unmatched = "unmatched"

// durationBuckets span the half-millisecond answers of /healthz to the
// request timeout, with the bench's default SLO (50 ms) a boundary.
var durationBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

func newDuration() *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "http_request_duration_seconds",
		Help:    "Time from the router receiving a request to the handler returning, by route pattern and status class.",
		Buckets: durationBuckets,
	}, []string{"route", "status"})
}

// Requests is the chi middleware that records every request's duration in
// the histogram. Each app installs it first on its router (mux.Use), where
// the route pattern is known once the handler has run; the router's route
// context goes back to chi's pool afterwards, so outside the router the
// pattern cannot be read. A handler that panics is recorded as 5xx, as
// serve.Recover answers it; refusals answered outside the router (an
// announced body over the limit, the site's cross-origin check) are not
// recorded.
func (m *Metrics) Requests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := serve.Record(w)
		returned := false
		defer func() {
			status := rec.Status()
			if !returned {
				status = http.StatusInternalServerError
			}
			m.duration.WithLabelValues(route(r), statusClass(status)).Observe(time.Since(start).Seconds())
		}()
		next.ServeHTTP(rec, r)
		returned = true
	})
}

// route is the pattern of the route that served r, or Unmatched.
func route(r *http.Request) string {
	if rctx := chi.RouteContext(r.Context()); rctx != nil {
		if p := rctx.RoutePattern(); p != "" {
			return p
		}
	}
	return Unmatched
}

// statusClasses are the status label's values, by status / 100.
var statusClasses = [...]string{"0xx", "1xx", "2xx", "3xx", "4xx", "5xx"}

// statusClass is "2xx" for 200 to 299 and so on.
func statusClass(status int) string {
	if c := status / 100; c < len(statusClasses) {
		return statusClasses[c]
	}
	return "other"
}
