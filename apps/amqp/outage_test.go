package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestDatabaseOutage cuts the connection to the database: operations
// that need it answer 503 with retry-after (healthz still 200), and once
// the database is back the same consumer answers again.
func TestDatabaseOutage(t *testing.T) {
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppWith(t, sharedBroker(t), dbtest.Store(t, url, db.Options{}), db.DefaultTimeout)
	a.call(t, "person.get", a.viewer, nil, "id", "1").want(t, 200)

	proxy.Down()
	a.call(t, "healthz", "", nil).want(t, 200)
	a.call(t, "person.get", a.viewer, nil, "id", "1").wantProblem(t, 503)
	a.call(t, "vacancy.list", a.viewer, nil, "status", "open").wantProblem(t, 503)
	a.call(t, "vacancy.update", a.editor, `{"version":1,"title":"during the outage"}`, "id", "1").wantProblem(t, 503)
	a.call(t, "login", "", `{"username":"editor","password":"editor"}`).wantProblem(t, 503)

	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, func() bool {
		return a.call(t, "person.get", a.viewer, nil, "id", "1").Status == 200
	}, "person 1 once the database is back")
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
