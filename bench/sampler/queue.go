package sampler

import "time"

// Queue is a broker's queue as the broker tells it at one reading.
type Queue struct {
	// Depth is the messages ready in it: published and not yet delivered
	// to a consumer (those delivered and not yet acknowledged are not
	// counted).
	Depth int
}

// QueueReader reads a broker's queue depth every interval with read and
// records the readings as a Series of their own, whose samples carry
// Sample.Queue only. Like a Scraper it runs on a goroutine of its own, so
// its cost is the runner's; create one with NewQueueReader, use it once.
type QueueReader struct {
	name     string
	read     func() (int, error)
	interval time.Duration

	stop chan struct{}
	done chan struct{}

	start    time.Time
	samples  []Sample
	misses   []time.Time
	finished map[string]Series
}

// NewQueueReader returns a QueueReader that calls read every interval and
// records its answers as the series called name.
func NewQueueReader(name string, read func() (int, error), interval time.Duration) *QueueReader {
	return &QueueReader{name: name, read: read, interval: interval, stop: make(chan struct{})}
}

// Start reads at once and then every interval until Stop. It must be
// called at most once.
func (q *QueueReader) Start() {
	if q.done != nil {
		panic("sampler: Start on a used QueueReader")
	}
	q.done = make(chan struct{})
	q.start = time.Now()
	go q.run()
}

// Stop takes one more reading, so that a window ending now has one at or
// after its end, ends reading and returns the series keyed by its name.
// Later calls return the same result.
func (q *QueueReader) Stop() map[string]Series {
	if q.finished != nil {
		return q.finished
	}
	if q.done != nil {
		close(q.stop)
		<-q.done
	}
	q.finished = map[string]Series{q.name: {
		Target:  Target{Name: q.name},
		Start:   q.start,
		Samples: q.samples,
		Misses:  q.misses,
	}}
	return q.finished
}

// run is the reading loop.
func (q *QueueReader) run() {
	defer close(q.done)
	tick := time.NewTicker(q.interval)
	defer tick.Stop()
	for {
		q.take()
		select {
		case <-tick.C:
		case <-q.stop:
			q.take()
			return
		}
	}
}

// take records one reading, or a miss when read fails.
func (q *QueueReader) take() {
	at := time.Now()
	n, err := q.read()
	if err != nil {
		q.misses = append(q.misses, at)
		return
	}
	q.samples = append(q.samples, Sample{At: at, Queue: &Queue{Depth: n}})
}
