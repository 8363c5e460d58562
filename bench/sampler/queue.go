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
	poll *poller
}

// NewQueueReader returns a QueueReader that calls read every interval and
// records its answers as the series called name.
func NewQueueReader(name string, read func() (int, error), interval time.Duration) *QueueReader {
	depth := func(at time.Time) (Sample, error) {
		n, err := read()
		return Sample{At: at, Queue: &Queue{Depth: n}}, err
	}
	return &QueueReader{poll: newPoller(name, interval, depth, lastReading{tries: 1})}
}

// Start reads at once and then every interval until Stop. It must be
// called at most once.
func (q *QueueReader) Start() {
	if !q.poll.startLoop() {
		panic("sampler: Start on a used QueueReader")
	}
}

// Stop takes one more reading, so that a window ending now has one at or
// after its end, ends reading and returns the series keyed by its name.
// A read that hangs holds it ten intervals at most (stopIntervals).
// Later calls return the same result.
func (q *QueueReader) Stop() map[string]Series { return q.poll.stopLoop() }
