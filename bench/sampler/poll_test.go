package sampler_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"crudbench/bench/sampler"
)

// calls is a read function for a poller that records when it was called
// and tells each call on a channel; fail says which calls (counted from
// 1) fail.
type calls struct {
	fail func(n int) bool

	mu  sync.Mutex
	at  []time.Time
	got chan int
}

func newCalls(fail func(n int) bool) *calls {
	return &calls{fail: fail, got: make(chan int, 1000)}
}

func (c *calls) read(at time.Time) (sampler.Sample, error) {
	c.mu.Lock()
	c.at = append(c.at, at)
	n := len(c.at)
	c.mu.Unlock()
	c.got <- n
	if c.fail != nil && c.fail(n) {
		return sampler.Sample{}, errors.New("unreadable")
	}
	return sampler.Sample{At: at, CPU: time.Duration(n)}, nil
}

func (c *calls) times() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.at...)
}

// waitCalls waits for the nth call.
func (c *calls) waitCalls(n int) {
	for <-c.got < n {
	}
}

// An hour's interval: no tick comes within a test, so every reading is
// the one at Start or one of Stop's.
const noTick = time.Hour

// TestPollerStart: Start reads at once, not a tick later, and Stop takes
// the last reading; a second Start is refused, a second Stop returns the
// same, and a poller never started has an empty series.
func TestPollerStart(t *testing.T) {
	t.Parallel()
	c := newCalls(nil)
	p := sampler.NewPoller(noTick, c.read, 1)
	before := time.Now()
	if !p.Start() {
		t.Fatal("Start of a new poller refused")
	}
	c.waitCalls(1)
	if p.Start() {
		t.Errorf("a second Start accepted")
	}
	ser := p.Stop()
	if len(ser.Samples) != 2 || len(ser.Misses) != 0 {
		t.Fatalf("%d samples, %d misses; want 2 (Start's and Stop's), none", len(ser.Samples), len(ser.Misses))
	}
	if ser.Start.Before(before) || ser.Samples[0].At.Before(ser.Start) {
		t.Errorf("started at %v, first sample at %v; want the start after %v and the sample after the start", ser.Start, ser.Samples[0].At, before)
	}
	if again := p.Stop(); len(again.Samples) != 2 || !again.Start.Equal(ser.Start) {
		t.Errorf("a second Stop returned %d samples from %v, want the first's", len(again.Samples), again.Start)
	}
	if never := sampler.NewPoller(noTick, c.read, 1).Stop(); len(never.Samples)+len(never.Misses) != 0 || !never.Start.IsZero() {
		t.Errorf("a poller never started: %+v, want an empty series", never)
	}
}

// TestPollerInterval: the poller reads once per interval at most, however
// late a loaded machine wakes it, and keeps each reading as a sample at
// the time of its call.
func TestPollerInterval(t *testing.T) {
	t.Parallel()
	const interval = 10 * time.Millisecond
	c := newCalls(nil)
	p := sampler.NewPoller(interval, c.read, 1)
	begin := time.Now()
	p.Start()
	c.waitCalls(6)
	ser := p.Stop()
	took := time.Since(begin)
	at := c.times()
	// Start's reading, one a tick, and Stop's: a busy machine makes
	// fewer, never more.
	if most := 2 + int(took/interval); len(at) > most {
		t.Errorf("%d readings in %v at one per %v, want %d at most", len(at), took, interval, most)
	}
	if len(ser.Samples) != len(at) || len(ser.Misses) != 0 {
		t.Fatalf("%d samples, %d misses of %d readings; want all samples", len(ser.Samples), len(ser.Misses), len(at))
	}
	for i, s := range ser.Samples {
		if !s.At.Equal(at[i]) {
			t.Errorf("sample %d at %v, want its call's %v", i, s.At, at[i])
		}
	}
}

// TestPollerMisses: a reading that fails is a miss at the time of its
// call, a gap in the series and nothing else: the readings around it are
// samples, and a failing last reading is tried again as often as allowed.
func TestPollerMisses(t *testing.T) {
	t.Parallel()
	t.Run("every other", func(t *testing.T) {
		t.Parallel()
		c := newCalls(func(n int) bool { return n%2 == 0 })
		p := sampler.NewPoller(10*time.Millisecond, c.read, 1)
		p.Start()
		c.waitCalls(7)
		ser := p.Stop()
		at := c.times()
		var misses, samples []time.Time
		for i, when := range at {
			if (i+1)%2 == 0 {
				misses = append(misses, when)
			} else {
				samples = append(samples, when)
			}
		}
		if len(ser.Misses) != len(misses) || len(ser.Samples) != len(samples) {
			t.Fatalf("%d samples, %d misses of %d readings; want %d, %d", len(ser.Samples), len(ser.Misses), len(at), len(samples), len(misses))
		}
		for i := range misses {
			if !ser.Misses[i].Equal(misses[i]) {
				t.Errorf("miss %d at %v, want its call's %v", i, ser.Misses[i], misses[i])
			}
		}
		for i := range samples {
			if !ser.Samples[i].At.Equal(samples[i]) {
				t.Errorf("sample %d at %v, want its call's %v", i, ser.Samples[i].At, samples[i])
			}
		}
	})
	for _, tc := range []struct {
		name        string
		fail        func(n int) bool
		tries       int
		calls, gaps int
	}{
		{"last tried thrice", func(int) bool { return true }, 3, 4, 4},
		{"last read at its second try", func(n int) bool { return n <= 2 }, 3, 3, 2},
		{"last tried once", func(int) bool { return true }, 1, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCalls(tc.fail)
			p := sampler.NewPoller(noTick, c.read, tc.tries)
			p.Start()
			c.waitCalls(1)
			ser := p.Stop()
			if n := len(c.times()); n != tc.calls || len(ser.Misses) != tc.gaps || len(ser.Samples) != tc.calls-tc.gaps {
				t.Errorf("%d readings, %d misses, %d samples; want %d, %d, %d", n, len(ser.Misses), len(ser.Samples), tc.calls, tc.gaps, tc.calls-tc.gaps)
			}
		})
	}
}

// TestPollerStopHung: a reading that never returns holds Stop for
// StopIntervals intervals, not for ever, and what it returns once it does
// is dropped: the series Stop returned stays as it was.
func TestPollerStopHung(t *testing.T) {
	t.Parallel()
	const interval = 10 * time.Millisecond
	release := make(chan struct{})
	c := newCalls(nil)
	hangs := func(at time.Time) (sampler.Sample, error) {
		s, err := c.read(at)
		if len(c.times()) == 2 {
			<-release
		}
		return s, err
	}
	p := sampler.NewPoller(interval, hangs, 1)
	p.Start()
	c.waitCalls(2)
	stopped := make(chan sampler.Series)
	begin := time.Now()
	go func() { stopped <- p.Stop() }()
	var ser sampler.Series
	select {
	case ser = <-stopped:
	case <-time.After(100 * sampler.StopIntervals * interval):
		close(release)
		t.Fatalf("Stop still waiting after %v for a hung reading, want it to give up after %v", time.Since(begin), sampler.StopIntervals*interval)
	}
	if took := time.Since(begin); took < sampler.StopIntervals*interval {
		t.Errorf("Stop returned after %v, before its %v of waiting", took, sampler.StopIntervals*interval)
	}
	if len(ser.Samples) != 1 || len(ser.Misses) != 0 {
		t.Errorf("%d samples, %d misses; want the one before the hang", len(ser.Samples), len(ser.Misses))
	}
	close(release)
	<-p.Ended()
	if again := p.Stop(); len(again.Samples) != 1 {
		t.Errorf("after the hung reading returned, %d samples; want the one Stop returned", len(again.Samples))
	}
}
