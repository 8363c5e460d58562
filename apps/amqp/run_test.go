package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestRun runs the whole app as main does, with its settings from the
// environment: the admin port answers /healthz and /readyz, the queue
// answers a login and a read, and a cancelled context stops it cleanly.
func TestRun(t *testing.T) {
	url := sharedBroker(t)
	queue := fmt.Sprintf("crudbench.test.run.%d", os.Getpid())
	env := map[string]string{
		"DATABASE_URL": dbtest.Seeded(t),
		"ADDR":         "127.0.0.1:0",
		"AUTH_SECRET":  string(testSecret),
		"AMQP_URL":     url,
		"AMQP_QUEUE":   queue,
	}
	t.Cleanup(func() { deleteQueue(t, url, queue) })
	out, logs := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var runErr error
	done := make(chan struct{})
	go func() {
		runErr = run(ctx, nil, func(k string) string { return env[k] }, logs, io.Discard)
		logs.Close()
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done })

	// The log says where the admin port listens, and when the queue is consumed.
	lines := make(chan map[string]any, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) != nil {
				continue
			}
			select {
			case lines <- line:
			default: // never block the app's logger
			}
		}
	}()
	addr, consumed := "", false
	for addr == "" || !consumed {
		line := nextLine(t, lines)
		switch line["msg"] {
		case "listening":
			addr, _ = line["addr"].(string)
		case "consuming":
			consumed = true
		}
	}
	admin := "http://" + addr
	for _, path := range []string{"/healthz", "/readyz"} {
		res, err := http.Get(admin + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET %s: %d, want 200", path, res.StatusCode)
		}
	}

	c := dial(t, url, queue)
	login := callWith(t, c, amqprpc.Request{Type: "login", Body: []byte(`{"username":"viewer","password":"viewer"}`)}).want(t, 200)
	token := decodeBody[loginResponse](t, login).Token
	callWith(t, c, amqprpc.Request{Type: "vacancy.list", Token: token, Params: map[string]string{"status": "open"}}).want(t, 200)

	cancel()
	select {
	case <-done:
		if runErr != nil {
			t.Errorf("run after cancel: %v", runErr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return within 30 s of its context's end")
	}
}

// nextLine is the app's next log line; a closed log or 60 s of silence
// fails the test.
func nextLine(t *testing.T, lines <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatal("the app ended before consuming")
		}
		return line
	case <-time.After(60 * time.Second):
		t.Fatal("no log line for 60 s")
	}
	return nil
}

// TestGracefulStop stops the consumer while it holds requests that wait
// for a stalled database: each is still answered (here 503, at its
// deadline), and none is left in the queue or answered twice.
func TestGracefulStop(t *testing.T) {
	proxy, dbURL := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppWith(t, sharedBroker(t), dbtest.Store(t, dbURL, db.Options{}), 3*time.Second)
	a.call(t, "person.get", a.viewer, nil, "id", "1").want(t, 200)
	proxy.Stall()
	t.Cleanup(proxy.Resume)

	const held = 3
	replies := make(chan error, held)
	for range held {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r, err := a.client.Call(ctx, amqprpc.Request{Type: "person.get", Token: a.viewer, Params: map[string]string{"id": "1"}})
			if err == nil && r.Status != 503 {
				err = fmt.Errorf("status %d, want 503: %s", r.Status, r.Body)
			}
			replies <- err
		}()
	}
	// Stop once the consumer holds every request.
	waitFor(t, 20*time.Second, func() bool { return a.consumer.Held() == held }, "the consumer to hold the %d requests", held)
	if err := a.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
	for range held {
		if err := <-replies; err != nil {
			t.Errorf("a request held at the stop: %v", err)
		}
	}
	// A request left unacked would be back in the queue, ready, once the
	// consumer's connection closed.
	if n := readyMessages(t, a.url, a.queue); n != 0 {
		t.Errorf("after the stop the queue has %d requests, want none", n)
	}
}

// readyMessages is the count of the queue's messages waiting for a consumer.
func readyMessages(t *testing.T, url, queue string) int {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	q, err := ch.QueueDeclarePassive(queue, true, false, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return q.Messages
}
