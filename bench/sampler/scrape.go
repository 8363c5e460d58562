package sampler

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// MinScrapeInterval is the shortest interval at which a Scraper reads an
// app's metrics, whatever it is asked: a scrape gathers every collector of
// the app, and once a second keeps that well under the app's own work.
const MinScrapeInterval = time.Second

// maxMetricsBytes bounds a scrape's body: an app's whole exposition is tens
// of kB; anything far larger is not worth holding.
const maxMetricsBytes = 8 << 20

// The metrics a Scraper reads: the standard process collector's (any
// Prometheus client library has them) and the apps' pgx pool's; the
// runtime's pauses are in pauses.go.
const (
	metricCPU          = "process_cpu_seconds_total"
	metricRSS          = "process_resident_memory_bytes"
	metricGoMaxProcs   = "go_sched_gomaxprocs_threads"
	metricAcquires     = "pgxpool_acquire_count_total"
	metricAcquireWait  = "pgxpool_acquire_duration_seconds_total"
	metricPoolMaxConns = "pgxpool_max_conns"
)

// Pool is an app's database pool as its metrics tell it at one scrape.
type Pool struct {
	// Acquires counts the connections the pool handed out since it
	// opened, and AcquireWait the time those acquisitions spent waiting.
	Acquires    uint64
	AcquireWait time.Duration
	// MaxConns is the pool's size.
	MaxConns int
}

// Scraper reads a process's CPU time and memory from its Prometheus
// metrics (process_cpu_seconds_total and process_resident_memory_bytes),
// for a process /proc cannot see or must not be used for: another host,
// another container. It records the same Series as a Sampler, plus the
// app's pool counters (Sample.Pool) and its runtime's pauses
// (Sample.Pauses) when it serves them. Create one with
// NewScraper; a Scraper is single-use.
//
// Scrapes run on a goroutine of their own, not on a Sampler's locked
// thread: an HTTP request is spread over the client's goroutines, which no
// thread's CPU clock can hold, so the scrapes' cost is part of the
// runner's own CPU and not of Sampler.Overhead.
type Scraper struct {
	url    string
	client *http.Client
	poll   *poller
}

// NewScraper returns a Scraper that reads the metrics at url every
// interval, MinScrapeInterval at least, and records them as the series
// called name. A scrape that does not answer within the interval is a
// miss, so a hung app delays nothing by more than that.
func NewScraper(name, url string, interval time.Duration) *Scraper {
	interval = max(interval, MinScrapeInterval)
	s := &Scraper{url: url, client: &http.Client{Timeout: interval}}
	// The last scrape is the one after the window that says the app was
	// read through it; on a busy machine one may time out, so it is tried
	// again, a few times at most.
	s.poll = newPoller(name, interval, s.read, lastReading{afterTick: true, tries: finalTries})
	return s
}

// finalTries bounds the tries of the scrape after the window.
const finalTries = 3

// Start scrapes at once and then every interval until Stop. It must be
// called at most once.
func (s *Scraper) Start() {
	if !s.poll.startLoop() {
		panic("sampler: Start on a used Scraper")
	}
}

// Stop waits for the next scrape, so that a window ending now has a sample
// at or after its end (Series.Around), ends scraping and returns the
// series keyed by its name. It takes up to two intervals, five against a
// hung app, and ten at most however long a scrape hangs (stopIntervals).
// Later calls return the same result.
func (s *Scraper) Stop() map[string]Series { return s.poll.stopLoop() }

// read fetches and parses the metrics once; a failure is the poller's
// miss at sent. The sample's time is halfway between sending the request
// and receiving the answer's headers: the app gathered its metrics
// somewhere in between.
func (s *Scraper) read(sent time.Time) (Sample, error) {
	req, err := http.NewRequest(http.MethodGet, s.url, nil)
	if err != nil {
		return Sample{}, err
	}
	req.Header.Set("Accept", string(expfmt.NewFormat(expfmt.TypeTextPlain)))
	resp, err := s.client.Do(req)
	if err != nil {
		return Sample{}, err
	}
	at := sent.Add(time.Since(sent) / 2)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Sample{}, fmt.Errorf("metrics: %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetricsBytes))
	if err != nil {
		return Sample{}, err
	}
	families, err := parseMetrics(bytes.NewReader(keepWanted(body)))
	if err != nil {
		return Sample{}, err
	}
	sample, err := families.sample()
	sample.At = at
	return sample, err
}

// keepWanted returns the lines of a text exposition that belong to the
// families a Scraper reads: their samples and their HELP and TYPE
// comments. The rest of an app's exposition (the Go runtime's, its request
// histograms: hundreds of lines) is dropped before parsing, which would
// otherwise cost most of a scrape.
func keepWanted(body []byte) []byte {
	out := body[:0:0]
	for line := range bytes.Lines(body) {
		name := line
		if rest, ok := bytes.CutPrefix(line, []byte("# HELP ")); ok {
			name = rest
		} else if rest, ok := bytes.CutPrefix(line, []byte("# TYPE ")); ok {
			name = rest
		}
		if end := bytes.IndexAny(name, " {\t\n"); end >= 0 {
			name = name[:end]
		}
		if wanted(string(name)) {
			out = append(out, line...)
		}
	}
	return out
}

// wanted reports whether a line of the exposition named name belongs to a
// family a Scraper reads: a histogram's or summary's lines add _bucket,
// _sum or _count to the family's name.
func wanted(name string) bool {
	switch name {
	case metricCPU, metricRSS, metricGoMaxProcs, metricAcquires, metricAcquireWait, metricPoolMaxConns,
		metricLoopDelayMin, metricLoopDelayMean, metricLoopDelayP99, metricLoopDelayMax:
		return true
	}
	for _, suffix := range []string{"", "_bucket", "_sum", "_count"} {
		switch strings.TrimSuffix(name, suffix) {
		case metricGoGCPauses, metricGoGCDuration, metricNodeGC:
			return true
		}
	}
	return false
}

// metrics are parsed metric families by name.
type metrics map[string]*dto.MetricFamily

// parseMetrics reads Prometheus's text exposition format.
func parseMetrics(r io.Reader) (metrics, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(r)
}

// sample is a Sample (without its time) from the metrics. CPU and memory
// must be there; the pool only when all its counters are, the pauses when
// the runtime exports them.
//
// process_cpu_seconds_total is, in client_golang's process collector (and
// in most others), utime plus stime of /proc/self/stat, each truncated to
// a 10 ms clock tick, and the kernel adds a running thread's time at its
// scheduler ticks (10 ms at the longest): CPUBehind is those two ticks
// plus a tick per thread that may run Go code (go_sched_gomaxprocs_threads;
// one when the app does not say).
func (m metrics) sample() (Sample, error) {
	cpu, okCPU := m.value(metricCPU)
	rss, okRSS := m.value(metricRSS)
	if !okCPU || !okRSS {
		return Sample{}, fmt.Errorf("metrics: no %s or %s", metricCPU, metricRSS)
	}
	threads, ok := m.value(metricGoMaxProcs)
	if !ok || threads < 1 {
		threads = 1
	}
	tick := time.Second / ClockTicksPerSecond
	s := Sample{
		CPU:       time.Duration(cpu * float64(time.Second)),
		CPUBehind: 2*tick + time.Duration(threads)*tick,
		RSSBytes:  uint64(rss),
		Pauses:    m.pauses(),
	}
	acquires, ok1 := m.value(metricAcquires)
	wait, ok2 := m.value(metricAcquireWait)
	size, ok3 := m.value(metricPoolMaxConns)
	if ok1 && ok2 && ok3 {
		s.Pool = &Pool{
			Acquires:    uint64(acquires),
			AcquireWait: time.Duration(wait * float64(time.Second)),
			MaxConns:    int(size),
		}
	}
	return s, nil
}

// value is the sum of the family's series (a pool per database would be
// one series each), whatever its type; false when it is absent.
func (m metrics) value(name string) (float64, bool) {
	f, ok := m[name]
	if !ok || len(f.GetMetric()) == 0 {
		return 0, false
	}
	var sum float64
	for _, x := range f.GetMetric() {
		switch {
		case x.Counter != nil:
			sum += x.GetCounter().GetValue()
		case x.Gauge != nil:
			sum += x.GetGauge().GetValue()
		case x.Untyped != nil:
			sum += x.GetUntyped().GetValue()
		default:
			return 0, false
		}
	}
	return sum, true
}
