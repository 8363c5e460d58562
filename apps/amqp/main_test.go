package main

// The tests live in package main because a command cannot be imported; they
// still talk to the app only over AMQP (the consumer on a real broker,
// reached with amqprpc, or the whole app through run), against real
// PostgreSQL databases from dbtest and a throwaway RabbitMQ node from
// bench/broker (or TEST_AMQP_URL).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/metrics"
	"crudbench/bench/broker"
	"crudbench/db"
	"crudbench/db/dbtest"
)

var (
	brokerOnce sync.Once
	brokerURL  string
	brokerErr  error
	testBroker *broker.Broker
)

func TestMain(m *testing.M) {
	code := dbtest.Run(m)
	if testBroker != nil {
		if err := testBroker.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the test broker:", err)
		}
	}
	os.Exit(code)
}

// sharedBroker is the URL of the tests' broker: TEST_AMQP_URL when set,
// else a throwaway node started once for the test binary. Neither is a
// failure that says what to install, never a skip.
func sharedBroker(t testing.TB) string {
	t.Helper()
	brokerOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		brokerURL, testBroker, brokerErr = broker.Use(ctx, "TEST_AMQP_URL", broker.Options{})
	})
	if brokerErr != nil {
		t.Fatal(brokerErr)
	}
	return brokerURL
}

func startBroker() (*broker.Broker, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return broker.Start(ctx, broker.Options{})
}

// testSecret signs the tokens of the test apps.
var testSecret = []byte("amqp-tests-secret-0123456789")

// testApp is the app's consumer on a queue of its own over a database of
// its own, a client of that queue, and ready-made tokens for the two roles.
type testApp struct {
	url      string
	queue    string
	client   *amqprpc.Client
	consumer *consumer
	tokens   *auth.Tokens
	logs     *syncBuffer
	// stop stops the consumer gracefully and returns what its run did;
	// the test's end calls it too.
	stop   func() error
	viewer string
	editor string
}

// newApp serves the app on a fresh copy of the seeded database and the
// shared broker.
func newApp(t *testing.T) *testApp {
	t.Helper()
	return newAppWith(t, sharedBroker(t), dbtest.Store(t, dbtest.Seeded(t), db.Options{}), db.DefaultTimeout)
}

var queues atomic.Int64

// newAppWith runs the consumer on url with the given store and request
// deadline, and waits until it consumes. The consumer stops, and its
// queue is deleted, when the test ends.
func newAppWith(t *testing.T, url string, store *db.Store, timeout time.Duration) *testApp {
	t.Helper()
	a := &testApp{
		url:    url,
		queue:  fmt.Sprintf("crudbench.test.%d.%d", os.Getpid(), queues.Add(1)),
		tokens: auth.NewTokens(testSecret, time.Hour),
		logs:   &syncBuffer{},
	}
	logger := slog.New(slog.NewJSONHandler(a.logs, nil))
	srv := NewServer(logger, store, a.tokens, timeout, metrics.New(store.PoolStats))
	a.consumer = newConsumer(logger, url, a.queue, defaultPrefetch, srv.Handle)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error, 1)
	go func() { stopped <- a.consumer.run(ctx) }()
	a.stop = sync.OnceValue(func() error { cancel(); return <-stopped })
	t.Cleanup(func() {
		if err := a.stop(); err != nil {
			t.Errorf("consumer stop: %v", err)
		}
		deleteQueue(t, url, a.queue)
	})
	waitFor(t, 30*time.Second, a.consumer.Consuming, "the consumer to consume %s; its log:\n%s", a.queue, a.logs)
	a.client = dial(t, url, a.queue)
	a.viewer = issue(t, a.tokens, 1, "viewer", auth.RoleViewer)
	a.editor = issue(t, a.tokens, 2, "editor", auth.RoleEditor)
	return a
}

func dial(t *testing.T, url, queue string) *amqprpc.Client {
	t.Helper()
	c, err := amqprpc.Dial(url, queue)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// deleteQueue removes a test's queue, which is durable and would
// otherwise stay on a broker of TEST_AMQP_URL.
func deleteQueue(t *testing.T, url, queue string) {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Logf("delete queue %s: %v", queue, err)
		return
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err == nil {
		_, err = ch.QueueDelete(queue, false, false, false)
	}
	if err != nil {
		t.Logf("delete queue %s: %v", queue, err)
	}
}

func issue(t testing.TB, tokens *auth.Tokens, id int64, name string, role auth.Role) string {
	t.Helper()
	tok, _, err := tokens.Issue(id, name, role)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// answer is what the app answered.
type answer struct {
	op string
	amqprpc.Reply
}

// call sends one request and waits up to 20 s for its reply. body is sent
// as is when it is a string or []byte, marshalled otherwise, and left out
// when nil; params are name, value pairs of parameter headers.
func (a *testApp) call(t testing.TB, op, token string, body any, params ...string) answer {
	t.Helper()
	return callWith(t, a.client, amqprpc.Request{Type: op, Token: token, Body: rawBody(t, body), Params: pairs(t, params)})
}

func callWith(t testing.TB, c *amqprpc.Client, req amqprpc.Request) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := c.Call(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", req.Type, err)
	}
	return answer{op: req.Type, Reply: r}
}

func rawBody(t testing.TB, body any) []byte {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return []byte(b)
	case []byte:
		return b
	}
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func pairs(t testing.TB, kv []string) map[string]string {
	t.Helper()
	if len(kv)%2 != 0 {
		t.Fatalf("parameters %q are not name, value pairs", kv)
	}
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// want fails the test unless the reply has the status; a success carries
// JSON, a 204 nothing.
func (r answer) want(t testing.TB, status int) answer {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: status %d, want %d; body %s", r.op, r.Status, status, r.Body)
	}
	switch {
	case status == 204 && (len(r.Body) != 0 || r.ContentType != ""):
		t.Errorf("%s: 204 with content type %q and body %q", r.op, r.ContentType, r.Body)
	case status < 300 && status != 204 && r.ContentType != "application/json":
		t.Errorf("%s: content type %q, want application/json", r.op, r.ContentType)
	}
	return r
}

// problemBody is the error body, REST's problem details.
type problemBody struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Detail   string            `json:"detail"`
	Instance string            `json:"instance"`
	Fields   map[string]string `json:"fields"`
}

// wantProblem fails the test unless the reply is a problem of the status
// (the header's and the body's), its instance the operation, its title
// the status's, and with a message for each named field.
func (r answer) wantProblem(t testing.TB, status int, fields ...string) problemBody {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: status %d, want %d; body %s", r.op, r.Status, status, r.Body)
	}
	if r.ContentType != "application/problem+json" {
		t.Errorf("%s: content type %q, want application/problem+json", r.op, r.ContentType)
	}
	var p problemBody
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("%s: problem body %q: %v", r.op, r.Body, err)
	}
	if p.Status != status || p.Instance != r.op || p.Title == "" || p.Type != "about:blank" {
		t.Errorf("%s: problem %+v, want status %d and instance %s", r.op, p, status, r.op)
	}
	for _, f := range fields {
		if p.Fields[f] == "" {
			t.Errorf("%s: problem %+v names no field %s", r.op, p, f)
		}
	}
	if (status == 503) != (r.RetryAfter != "") {
		t.Errorf("%s: status %d with retry-after %q", r.op, status, r.RetryAfter)
	}
	return p
}

func decodeBody[T any](t testing.TB, r answer) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: decode %s: %v", r.op, r.Body, err)
	}
	return v
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t testing.TB, limit time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for "+format, append([]any{limit}, args...)...)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// syncBuffer is a log sink safe for the consumer's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// contains reports whether the log holds a line with every part.
func (b *syncBuffer) contains(parts ...string) bool {
	for _, line := range strings.Split(b.String(), "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}
