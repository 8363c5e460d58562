package scenario

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// OpensOn is the opening day of every vacancy the bench writes.
const OpensOn = "2026-01-01"

// Workload is the stream of requests of one run and what the run learns
// from the answers.
//
// Reads and control repeat one request. A write run cannot send a whole
// create → update → delete cycle as one request: vegeta measures single
// requests, and its open model sends on schedule whatever came back. So
// every request is one step, chosen in turn: a create; an update of a row
// an earlier create made; a delete of a row an earlier update changed.
// Rows move from step to step as the answers arrive (Observe), so a step
// whose predecessor has not answered yet becomes the step before it, and
// no row is ever touched by two requests at once (no version conflicts).
// Each create carries a title no other request uses. Rows still alive when
// the attack ends are removed by Cleanup, outside the measured window.
//
// The mixed scenario interleaves the four scenarios by MixWeights with a
// smooth weighted round robin, the write share following the same steps.
type Workload struct {
	session  *Session
	scenario string
	tag      string // starts every title this workload writes

	next    atomic.Uint64 // requests handed out
	writes  atomic.Uint64 // write steps handed out
	creates atomic.Uint64 // creates handed out (numbers the titles)
	mix     []Op          // mixed: one cycle of the weighted order
	// first and every place the workload's requests in a schedule that
	// several runners share: its k-th request is the schedule's number
	// first + k·every (0 and 1 when it sends them all).
	first, every uint64
	// reads are the read and control requests, built once: they never
	// change, and vegeta calls the targeter inside each request's timed
	// span, so building them per request would add to the latency.
	// vegeta copies a target's header and body into every request, so
	// the concurrent workers can share them.
	reads map[Op]vegeta.Target

	mu      sync.Mutex
	created []row          // answered creates, waiting for their update
	updated []int64        // answered updates, waiting for their delete
	alive   map[int64]bool // every row created and not yet deleted
}

// row is a vacancy the workload created, with the version it last saw.
type row struct {
	id      int64
	version int32
}

// NewWorkload returns the workload of scenario against a session. tag
// starts the title of every vacancy it writes, so rows of a run can be told
// apart from everything else.
func NewWorkload(s *Session, scenario, tag string) (*Workload, error) {
	if !slices.Contains(All, scenario) {
		return nil, fmt.Errorf("unknown scenario %q", scenario)
	}
	w := &Workload{session: s, scenario: scenario, tag: tag, every: 1, alive: map[int64]bool{}, reads: map[Op]vegeta.Target{}}
	for _, op := range []Op{OpReadOne, OpReadSmall, OpReadMany, OpReadSlim, OpControl} {
		w.reads[op] = s.Target(op)
	}
	if scenario == Mixed {
		w.mix = mixOrder(MixWeights)
	}
	return w, nil
}

// Share makes the workload shard index of count sharing one schedule
// (-shard index/count): its k-th request is the schedule's request
// index + k·count, and the mixed scenario picks that request's operation,
// so all shards together send the mix one runner would. Call it before the
// targeter's first request. The tag should name the shard: each shard
// writes and cleans up rows of its own.
func (w *Workload) Share(index, count int) {
	w.first, w.every = uint64(index), uint64(count)
}

// Targeter returns the vegeta targeter of the workload. It is safe for
// vegeta's concurrent workers.
func (w *Workload) Targeter() vegeta.Targeter {
	return func(t *vegeta.Target) error {
		if t == nil {
			return vegeta.ErrNilTarget
		}
		*t = w.nextTarget()
		return nil
	}
}

func (w *Workload) nextTarget() vegeta.Target {
	n := w.first + (w.next.Add(1)-1)*w.every
	op := Op(w.scenario)
	if w.scenario == Mixed {
		op = Op(w.mix[n%uint64(len(w.mix))])
	}
	if op == Op(Write) {
		return w.writeStep()
	}
	return w.reads[op]
}

// writeStep hands out the next step of the create → update → delete
// rotation, falling back to an earlier step when no row is ready for it.
func (w *Workload) writeStep() vegeta.Target {
	step := w.writes.Add(1) - 1
	w.mu.Lock()
	if step%3 == 2 && len(w.updated) > 0 {
		id := w.updated[0]
		w.updated = w.updated[1:]
		w.mu.Unlock()
		return w.session.Delete(id)
	}
	if step%3 >= 1 && len(w.created) > 0 {
		r := w.created[0]
		w.created = w.created[1:]
		w.mu.Unlock()
		return w.session.Update(r.id, r.version, w.data(r.id, true))
	}
	w.mu.Unlock()
	return w.session.Create(w.data(int64(w.creates.Add(1)), false))
}

// data is the content of a write: a title of its own and values that
// differ between create and update, so validation can see the update.
func (w *Workload) data(n int64, edited bool) VacancyData {
	v := VacancyData{
		Title:          fmt.Sprintf("%s #%d", w.tag, n),
		Department:     "Benchmarking",
		Location:       "Load lab",
		SalaryMinCents: 4_000_000,
		SalaryMaxCents: 5_000_000,
		Description:    "Written by the crudbench load runner; removed again after the run.",
	}
	if edited {
		v.Title += " (edited)"
		v.SalaryMaxCents = 5_500_000
		v.Description = "Updated by the crudbench load runner; removed again after the run."
	}
	return v
}

// Observe checks one answer (see App.Check) and, for a write, moves its row
// on to the next step. A wrong answer is recorded in r.Error, so the
// metrics count it as a failure. It must be called for every result, in
// any order, from one goroutine or several.
func (w *Workload) Observe(r *vegeta.Result) {
	err := w.session.App.Check(r)
	op, id := OpOf(r)
	switch {
	case err != nil:
		if r.Error == "" {
			r.Error = fmt.Sprintf("%s: %v", op, err)
		}
	case op == OpCreate:
		newID, version, perr := w.session.App.d.created(r)
		if perr != nil {
			r.Error = fmt.Sprintf("%s: %v", op, perr)
			if newID != 0 {
				// The row exists though its answer is wrong: Cleanup
				// removes it, and no update is sent for it.
				w.mu.Lock()
				w.alive[newID] = true
				w.mu.Unlock()
			}
			return
		}
		w.mu.Lock()
		w.alive[newID] = true
		w.created = append(w.created, row{newID, version})
		w.mu.Unlock()
	case op == OpUpdate:
		w.mu.Lock()
		w.updated = append(w.updated, id)
		w.mu.Unlock()
	case op == OpDelete:
		w.mu.Lock()
		delete(w.alive, id)
		w.mu.Unlock()
	}
}

// Alive returns the rows this workload created and has not seen deleted.
func (w *Workload) Alive() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]int64, 0, len(w.alive))
	for id := range w.alive {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Cleanup deletes, through the app, every row the workload created and did
// not delete, plus extra (rows found by other means, e.g. in the database,
// whose create answer was lost). It returns how many it deleted.
func (w *Workload) Cleanup(ctx context.Context, c *http.Client, extra ...int64) (int, error) {
	ids := w.Alive()
	for _, id := range extra {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var errs []error
	deleted := 0
	for _, id := range ids {
		t := w.session.Delete(id)
		r, err := Do(ctx, c, t)
		if err == nil {
			err = w.session.App.Check(r)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("delete vacancy %d: %w", id, err))
			continue
		}
		deleted++
		w.mu.Lock()
		delete(w.alive, id)
		w.mu.Unlock()
	}
	return deleted, errors.Join(errs...)
}

// mixOrder spreads the weights over one cycle of sum/gcd slots by smooth
// weighted round robin, so that every scenario recurs at even intervals
// instead of in bursts.
func mixOrder(weights []Weight) []Op {
	g := 0
	for _, wt := range weights {
		g = gcd(g, wt.Percent)
	}
	total := 0
	for _, wt := range weights {
		total += wt.Percent / g
	}
	current := make([]int, len(weights))
	order := make([]Op, 0, total)
	for range total {
		best := 0
		for i, wt := range weights {
			current[i] += wt.Percent / g
			if current[i] > current[best] {
				best = i
			}
		}
		current[best] -= total
		order = append(order, Op(weights[best].Scenario))
	}
	return order
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
