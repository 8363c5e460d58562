// Package barrier starts the shards of one run together: every shard
// says it is ready in a folder all of them see (the results volume of the
// Kubernetes chart's bench Job), shard 0 sets the shared start once every
// shard is ready, or once it has waited long enough, and every shard reads
// that start. The folder holds the whole state, so a shard that restarts,
// shard 0 included, finds the start already set and joins the run late
// instead of waiting for the others again or setting another start.
//
// Files, not a coordinator's socket or the Kubernetes API: the folder
// needs neither cluster DNS nor API rights, and the chart mounts it in
// every shard anyway, for the merge.
package barrier

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// DefaultLead is how long after shard 0 sets the start the run begins:
// time for every waiting shard to read the start file (a shared volume
// may show it a poll or an attribute cache's second late), not for any
// work, which every shard has done before it is ready.
const DefaultLead = 3 * time.Second

// DefaultPoll is how often a shard looks into the folder.
const DefaultPoll = 50 * time.Millisecond

// Barrier is the start barrier of shard Index of Count, kept in Dir.
type Barrier struct {
	Dir          string
	Index, Count int
	// Timeout bounds every wait: shard 0's for the other shards, from its
	// own arrival (it then starts without the missing ones), and the
	// others' for shard 0, from theirs, and then for its start, as long
	// again from shard 0's arrival (they then fail, and a retry joins
	// late).
	Timeout time.Duration
	// Lead and Poll default to DefaultLead and DefaultPoll.
	Lead, Poll time.Duration
}

// Start is the shared start as one shard learned it.
type Start struct {
	// At is the shared start, set by shard 0.
	At time.Time `json:"at"`
	// SetAt is when shard 0 set it.
	SetAt time.Time `json:"setAt"`
	// Ready is when each shard said it was ready, by index, as shard 0 saw
	// them when it set the start.
	Ready map[int]time.Time `json:"ready"`
	// Missing are the shards that were not ready when shard 0 stopped
	// waiting for them.
	Missing []int `json:"missing,omitempty"`

	// Arrived is when this shard said it was ready, Learned when it read
	// the start: after At, the shard is late by Learned − At.
	Arrived time.Time `json:"-"`
	Learned time.Time `json:"-"`
}

// Late is how late this shard learned the start: zero when it learned it
// before the start.
func (s Start) Late() time.Duration {
	return max(0, s.Learned.Sub(s.At))
}

// Spread is how far apart the ready shards became ready: what the barrier
// absorbed, which a guessed lead would have had to cover.
func (s Start) Spread() time.Duration {
	var first, last time.Time
	for _, t := range s.Ready {
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	return last.Sub(first)
}

// startFile is the name of the file holding the start.
const startFile = "start"

// readyFile is the name of shard i's ready file.
func readyFile(i int) string { return "ready-" + strconv.Itoa(i) }

// Wait says shard b.Index is ready and returns the shared start once it is
// set. Shard 0 sets it when every shard is ready or b.Timeout after it
// became ready itself, whichever comes first; another shard fails when
// shard 0 is not ready b.Timeout after it, or has set no start b.Timeout
// after its own arrival. A start already set (a shard that restarted, or
// came later than b.Timeout) is returned at once.
func (b Barrier) Wait(ctx context.Context) (Start, error) {
	if err := b.check(); err != nil {
		return Start{}, err
	}
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return Start{}, fmt.Errorf("barrier: %w", err)
	}
	arrived := time.Now()
	if err := writeFile(filepath.Join(b.Dir, readyFile(b.Index)), []byte(arrived.UTC().Format(time.RFC3339Nano))); err != nil {
		return Start{}, fmt.Errorf("barrier: %w", err)
	}
	deadline := arrived.Add(b.Timeout)
	tick := time.NewTicker(cmp.Or(b.Poll, DefaultPoll))
	defer tick.Stop()
	for {
		s, ok, err := b.read()
		if err != nil {
			return Start{}, err
		}
		if !ok && b.Index == 0 {
			s, ok, err = b.release(deadline)
			if err != nil {
				return Start{}, err
			}
		}
		if ok {
			s.Arrived, s.Learned = arrived, time.Now()
			return s, nil
		}
		if b.Index != 0 && !time.Now().Before(deadline) {
			// Shard 0, once ready, waits for the shards its own timeout long:
			// wait as long again from its arrival, and a little more for its
			// start to show.
			r0, ok, err := readReady(b.Dir, 0)
			if err != nil {
				return Start{}, err
			}
			if !ok || !time.Now().Before(r0.Add(b.Timeout+time.Second)) {
				return Start{}, fmt.Errorf("barrier: shard 0 set no start in %s within %s of shard %d's arrival: is shard 0 running?", b.Dir, b.Timeout, b.Index)
			}
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return Start{}, fmt.Errorf("barrier: %w", context.Cause(ctx))
		}
	}
}

// check refuses a barrier that names no shard of a run.
func (b Barrier) check() error {
	switch {
	case b.Dir == "":
		return errors.New("barrier: no folder")
	case b.Count < 1 || b.Index < 0 || b.Index >= b.Count:
		return fmt.Errorf("barrier: shard %d/%d: want 0 ≤ index < count", b.Index, b.Count)
	case b.Timeout <= 0:
		return errors.New("barrier: the timeout must be above zero")
	case b.Lead < 0 || b.Poll < 0:
		return errors.New("barrier: the lead and the poll interval may not be negative")
	}
	return nil
}

// ReadStart reads the start shard 0 set in dir, the barrier's folder,
// as the shards read it: for what looks from outside the shards (a test,
// or a person after the run); false when no start is set yet.
func ReadStart(dir string) (Start, bool, error) { return Barrier{Dir: dir}.read() }

// read returns the start when it is set.
func (b Barrier) read() (Start, bool, error) {
	data, err := os.ReadFile(filepath.Join(b.Dir, startFile))
	if errors.Is(err, os.ErrNotExist) {
		return Start{}, false, nil
	}
	if err != nil {
		return Start{}, false, fmt.Errorf("barrier: %w", err)
	}
	var s Start
	if err := json.Unmarshal(data, &s); err != nil {
		return Start{}, false, fmt.Errorf("barrier: %s: %w", filepath.Join(b.Dir, startFile), err)
	}
	return s, true, nil
}

// release is shard 0's look at the ready files: it sets the start when
// every shard is ready or deadline has passed, and reports whether it did.
func (b Barrier) release(deadline time.Time) (Start, bool, error) {
	ready := map[int]time.Time{}
	var missing []int
	for i := range b.Count {
		t, ok, err := readReady(b.Dir, i)
		if err != nil {
			return Start{}, false, err
		}
		if !ok {
			missing = append(missing, i)
			continue
		}
		ready[i] = t
	}
	now := time.Now()
	if len(missing) > 0 && now.Before(deadline) {
		return Start{}, false, nil
	}
	s := Start{At: now.Add(cmp.Or(b.Lead, DefaultLead)), SetAt: now, Ready: ready, Missing: missing}
	data, err := json.Marshal(s)
	if err != nil {
		return Start{}, false, fmt.Errorf("barrier: %w", err)
	}
	if err := writeFile(filepath.Join(b.Dir, startFile), data); err != nil {
		return Start{}, false, fmt.Errorf("barrier: %w", err)
	}
	return s, true, nil
}

// readReady returns when shard i said it was ready, if it did.
func readReady(dir string, i int) (time.Time, bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, readyFile(i)))
	if errors.Is(err, os.ErrNotExist) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("barrier: %w", err)
	}
	t, err := time.Parse(time.RFC3339Nano, string(data))
	if err != nil {
		return time.Time{}, false, fmt.Errorf("barrier: %s: %w", filepath.Join(dir, readyFile(i)), err)
	}
	return t, true, nil
}

// writeFile writes data to name whole: into a file beside it, then renamed
// into place, so that no reader sees half of it.
func writeFile(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
