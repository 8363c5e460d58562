package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestDatabaseOutage cuts the connection to the database under a steady
// stream of requests: while it is down every request is answered 503 with
// retry-after (healthz still 200), none goes unanswered past its
// deadline, and once the database is back the same consumer (no restart
// of the app) answers 200 again.
func TestDatabaseOutage(t *testing.T) {
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppWith(t, sharedBroker(t), dbtest.Store(t, url, db.Options{}), db.DefaultTimeout)
	a.call(t, "person.get", a.viewer, nil, "id", "1").want(t, 200)
	l := startLoad(a)
	t.Cleanup(l.stop)
	waitFor(t, 30*time.Second, func() bool { return l.count(phaseBefore, outcomeOK) >= 20 }, "20 answers before the outage")

	proxy.Down()
	l.enter(phaseDown)
	a.call(t, "healthz", "", nil).want(t, 200)
	a.call(t, "person.get", a.viewer, nil, "id", "1").wantProblem(t, 503)
	a.call(t, "vacancy.list", a.viewer, nil, "status", "open").wantProblem(t, 503)
	a.call(t, "vacancy.update", a.editor, `{"version":1,"title":"during the outage"}`, "id", "1").wantProblem(t, 503)
	a.call(t, "login", "", `{"username":"editor","password":"editor"}`).wantProblem(t, 503)
	waitFor(t, 30*time.Second, func() bool { return l.count(phaseDown, outcomeUnavailable) >= 20 }, "20 replies of 503 during the outage")

	l.enter(phaseUp)
	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, func() bool { return l.count(phaseUp, outcomeOK) >= 20 }, "20 answers once the database is back; the consumer's log:\n%s", a.logs)
	l.stop()

	if n := l.count(phaseDown, outcomeOK); n != 0 {
		t.Errorf("%d requests sent and answered while the database was down were answered 200", n)
	}
	for _, ph := range []phase{phaseBefore, phaseDown, phaseUp, phaseAcross} {
		t.Logf("%s: %d answered 200, %d 503", ph, l.count(ph, outcomeOK), l.count(ph, outcomeUnavailable))
		if n := l.count(ph, outcomeLost); n != 0 {
			t.Errorf("%s: %d requests got no reply within %v of their %v deadline", ph, n, loadGrace, loadDeadline)
		}
		if n := l.count(ph, outcomeWrong); n != 0 {
			t.Errorf("%s: %d replies neither 200 nor 503 with retry-after, the first: %s", ph, n, l.firstWrong())
		}
	}
}

// loadDeadline is the deadline each request of a load carries (its
// expiration); loadGrace is how long past it its caller waits for the
// reply before it counts the request as lost.
const (
	loadDeadline = 2 * time.Second
	loadGrace    = 8 * time.Second
)

// phase is the part of an outage test a request of a load was sent and
// answered in.
type phase int

const (
	phaseBefore phase = iota // the database up, before the outage
	phaseDown                // the database down
	phaseUp                  // the database brought back
	phaseAcross              // sent in one phase and answered in another
)

func (p phase) String() string {
	return [...]string{"before the outage", "during the outage", "after the outage", "across phases"}[p]
}

// outcome is what became of one request of a load.
type outcome int

const (
	outcomeOK          outcome = iota // 200
	outcomeUnavailable                // 503 with retry-after
	outcomeLost                       // no reply by its deadline and grace
	outcomeWrong                      // any other reply or error
)

// load is four callers sending person.get requests on the app's client
// one after another, each request's outcome counted by the phase it was
// sent and answered in.
type load struct {
	phase   atomic.Int64
	counts  [4][4]atomic.Int64
	mu      sync.Mutex
	wrong   string
	done    chan struct{}
	callers sync.WaitGroup
	stop    func()
}

func startLoad(a *testApp) *load {
	l := &load{done: make(chan struct{})}
	l.stop = sync.OnceFunc(func() { close(l.done); l.callers.Wait() })
	for range 4 {
		l.callers.Go(func() {
			for {
				select {
				case <-l.done:
					return
				default:
				}
				l.send(a)
			}
		})
	}
	return l
}

// send makes one call and counts its outcome.
func (l *load) send(a *testApp) {
	sent := phase(l.phase.Load())
	ctx, cancel := context.WithTimeout(context.Background(), loadDeadline+loadGrace)
	defer cancel()
	r, err := a.client.Call(ctx, amqprpc.Request{Type: "person.get", Token: a.viewer, Params: map[string]string{"id": "1"}, Expiration: loadDeadline})
	ph := sent
	if answered := phase(l.phase.Load()); answered != sent {
		ph = phaseAcross
	}
	o := outcomeWrong
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		o = outcomeLost
	case err != nil:
		l.noteWrong(err.Error())
	case r.Status == 200:
		o = outcomeOK
	case r.Status == 503 && r.RetryAfter != "":
		o = outcomeUnavailable
	default:
		l.noteWrong(fmt.Sprintf("status %d, retry-after %q, body %s", r.Status, r.RetryAfter, r.Body))
	}
	l.counts[ph][o].Add(1)
}

// enter starts phase p: requests sent from now on are counted in it.
func (l *load) enter(p phase) { l.phase.Store(int64(p)) }

// count is the number of requests sent and answered in phase p with
// outcome o.
func (l *load) count(p phase, o outcome) int64 { return l.counts[p][o].Load() }

func (l *load) noteWrong(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrong == "" {
		l.wrong = s
	}
}

func (l *load) firstWrong() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.wrong
}

// TestDatabaseStall stalls the database: a request whose expiration is
// shorter than REQUEST_TIMEOUT is answered 503 at its own deadline, not
// the server's.
func TestDatabaseStall(t *testing.T) {
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppWith(t, sharedBroker(t), dbtest.Store(t, url, db.Options{}), 20*time.Second)
	a.call(t, "person.get", a.viewer, nil, "id", "1").want(t, 200)
	proxy.Stall()
	t.Cleanup(proxy.Resume)

	// The call waits up to 15 s; the request's expiration says 1.5 s, so
	// the reply is a 503 from the app long before either.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	r, err := a.client.Call(ctx, amqprpc.Request{Type: "person.get", Token: a.viewer, Params: map[string]string{"id": "1"}, Expiration: 1500 * time.Millisecond})
	if err != nil {
		t.Fatalf("no reply within the expiration's deadline: %v", err)
	}
	answer{op: "person.get", Reply: r}.wantProblem(t, 503)
}

// TestBrokerRestart restarts the broker under a steady stream of
// requests: calls cut off by it fail on the client side, and once the
// node is back the same consumer (no restart of the app) answers a new
// client's requests again. The node is the test's own, since the shared
// one serves other tests.
func TestBrokerRestart(t *testing.T) {
	b, err := startBroker()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Stop() })
	a := newAppWith(t, b.URL(), dbtest.Store(t, dbtest.Seeded(t), db.Options{}), db.DefaultTimeout)

	// Load: four callers, each on the current client, until the test ends.
	var (
		mu      sync.Mutex
		client  = a.client
		ok      atomic.Int64
		stop    = make(chan struct{})
		callers sync.WaitGroup
	)
	current := func() *amqprpc.Client { mu.Lock(); defer mu.Unlock(); return client }
	for range 4 {
		callers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				r, err := current().Call(ctx, amqprpc.Request{Type: "person.get", Token: a.viewer, Params: map[string]string{"id": "1"}})
				cancel()
				switch {
				case err == nil && r.Status == 200:
					ok.Add(1)
				case errors.Is(err, amqprpc.ErrClosed):
					// Cut off by the restart: wait for the new client.
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
	t.Cleanup(func() { close(stop); callers.Wait() })
	waitFor(t, 30*time.Second, func() bool { return ok.Load() >= 20 }, "20 answers before the restart")

	if err := b.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, a.consumer.Consuming, "the consumer to consume again after the restart; its log:\n%s", a.logs)
	fresh, err := amqprpc.Dial(b.URL(), a.queue)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fresh.Close() })
	mu.Lock()
	client = fresh
	mu.Unlock()
	before := ok.Load()
	waitFor(t, 30*time.Second, func() bool { return ok.Load() >= before+20 }, "20 answers after the restart; the consumer's log:\n%s", a.logs)
	if !a.logs.contains("broker unavailable: reconnecting") {
		t.Errorf("the consumer did not log its reconnection; its log:\n%s", a.logs)
	}
}
