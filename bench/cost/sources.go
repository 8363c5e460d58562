package cost

import (
	"fmt"

	"crudbench/bench/results"
)

// poolSuffix names the series scraped from an app's metrics for its pool
// alone, when its CPU and memory come from /proc.
const poolSuffix = ".metrics"

// replicaSuffix names the series of an app's replicas, numbered from 1.
const replicaSuffix = ".replica"

// Sources says where one app's figures come from in an attack's series:
// which of its processes /proc is read for, which metrics are scraped, and
// which of them its CPU and memory are taken from.
type Sources struct {
	// app names the series of the app's CPU and memory; cpu is its source
	// (results.SourceProc or SourceMetrics), empty when there is none.
	app, cpu string
	// pid is the process /proc is read for, 0 when it is not; tree says
	// /proc is read for it and its descendants, their figures added up.
	pid  int
	tree bool
	// scrapes are the app's metrics, one per process, each scraped into a
	// series of its own: for the pool, and for CPU and memory when cpu is
	// SourceMetrics. With one, its series is app when cpu is
	// SourceMetrics; with several (replicas), the app's figures are the
	// sum of theirs. None when their URL is unknown.
	scrapes []scrape
	// broker is the process tree of an amqp app's broker (its Erlang VM),
	// 0 when it is not visible; depth reads its request queue's depth,
	// nil when it is not read.
	broker int
	depth  func() (int, error)
}

// scrape is one process's metrics: the URL and the series it is read into.
type scrape struct {
	url, series string
}

// NewSources chooses the sources of app, whose process pid is visible (0
// when it is not, or ruled out by -no-proc) and whose metrics, one URL per
// process, are at metricsURLs (none when unknown): /proc when its process
// is visible, else its metrics when their URL is known; its metrics for
// the pool whenever their URL is known.
func NewSources(app string, pid int, metricsURLs []string) Sources {
	s := Sources{app: app, pid: pid}
	switch {
	case pid > 0:
		s.cpu = results.SourceProc
	case len(metricsURLs) > 0:
		s.cpu = results.SourceMetrics
	}
	for i, url := range metricsURLs {
		name := app + poolSuffix
		switch {
		case len(metricsURLs) > 1:
			name = fmt.Sprintf("%s%s%d", app, replicaSuffix, i+1)
		case s.cpu == results.SourceMetrics:
			name = app
		}
		s.scrapes = append(s.scrapes, scrape{url: url, series: name})
	}
	return s
}

// AsTree returns s with the app's process read from /proc as a tree: the
// process and its descendants (a primary and its workers), their CPU
// added up and their memory as the sum of Pss.
func (s Sources) AsTree() Sources {
	s.tree = true
	return s
}

// WithBroker returns s with the broker of an amqp app watched as
// PostgreSQL is: its Erlang VM pid as a tree (0: not visible), and its
// request queue's depth read with depth (nil: not read).
func (s Sources) WithBroker(pid int, depth func() (int, error)) Sources {
	s.broker, s.depth = pid, depth
	return s
}

// BrokerPID is the broker's Erlang VM /proc is read for, 0 when it is not.
func (s Sources) BrokerPID() int { return s.broker }

// replicated reports whether the app runs as several processes, whose
// figures are added up.
func (s Sources) replicated() bool { return len(s.scrapes) > 1 }

// PID is the app's process /proc is read for, 0 when it is not.
func (s Sources) PID() int { return s.pid }
