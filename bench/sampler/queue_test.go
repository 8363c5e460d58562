package sampler_test

import (
	"errors"
	"testing"
	"time"

	"crudbench/bench/sampler"
)

// TestQueueReader: a reading is a sample carrying the queue's depth and
// nothing else, a failed one a miss, and Stop takes one reading more.
func TestQueueReader(t *testing.T) {
	t.Parallel()
	depths := make(chan int, 2)
	read := func() (int, error) {
		n, ok := <-depths
		if !ok {
			return 0, errors.New("the broker went away")
		}
		return n, nil
	}
	q := sampler.NewQueueReader("queue", read, time.Hour)
	depths <- 7
	q.Start()
	close(depths)
	ser := q.Stop()["queue"]
	if ser.Target.Name != "queue" || len(ser.Samples) != 1 || len(ser.Misses) != 1 {
		t.Fatalf("series %q: %d samples, %d misses; want \"queue\", the reading at Start and Stop's failed one", ser.Target.Name, len(ser.Samples), len(ser.Misses))
	}
	if s := ser.Samples[0]; s.Queue == nil || s.Queue.Depth != 7 || s.CPU != 0 || s.Pool != nil {
		t.Errorf("sample %+v, want a queue of depth 7 and nothing else", s)
	}
}
