package amqpwire_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"crudbench/apps/amqp/amqprpc"
	"crudbench/bench/amqpwire"
	"crudbench/bench/broker"
)

// brokerURL is the tests' broker: TEST_AMQP_URL, else a throwaway node.
func brokerURL(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	url, node, err := broker.Use(ctx, "TEST_AMQP_URL", broker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if node != nil {
		t.Cleanup(func() { _ = node.Stop() })
	}
	return url
}

// startBroker starts a throwaway node, stopped when the test ends.
func startBroker(t *testing.T) *broker.Broker {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b, err := broker.Start(ctx, broker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Stop() })
	return b
}

// respond consumes queue and answers each request as the amqp app would
// shape it: the status its type names ("status.201"), the retry-after
// header with a 503, and a JSON body that echoes what arrived. A type
// "ignore" gets no reply.
func respond(t *testing.T, url, queue string) {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ch.QueueDeclare(queue, false, true, false, false, nil); err != nil {
		t.Fatal(err)
	}
	deliveries, err := ch.Consume(queue, "", true, false, false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for d := range deliveries {
			if d.Type == "ignore" {
				continue
			}
			status := int32(200)
			if code, ok := strings.CutPrefix(d.Type, "status."); ok {
				n, _ := strconv.Atoi(code)
				status = int32(n)
			}
			headers := amqp.Table{"status": status}
			if status == 503 {
				headers["retry-after"] = "5"
			}
			body, _ := json.Marshal(map[string]any{
				"type": d.Type, "headers": d.Headers, "contentType": d.ContentType,
				"body": string(d.Body), "expiration": d.Expiration,
			})
			_ = ch.PublishWithContext(context.Background(), "", d.ReplyTo, false, false, amqp.Publishing{
				Headers: headers, ContentType: "application/json", CorrelationId: d.CorrelationId, Body: body,
			})
		}
	}()
}

func TestRoundTrip(t *testing.T) {
	url := brokerURL(t)
	respond(t, url, "wire-test")
	tr := amqpwire.New(url, 2)
	t.Cleanup(func() { _ = tr.Close() })
	client := &http.Client{Transport: tr, Timeout: 20 * time.Second}

	t.Run("request and reply", func(t *testing.T) {
		req, err := http.NewRequest("POST", "amqprpc://wire-test/vacancy.update?id=7&limit=3", strings.NewReader(`{"version":1}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer abc")
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("status %d, content type %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		var got struct {
			Type, ContentType, Body, Expiration string
			Headers                             map[string]any
		}
		raw, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got.Type != "vacancy.update" || got.ContentType != "application/json" || got.Body != `{"version":1}` ||
			got.Headers["id"] != "7" || got.Headers["limit"] != "3" || got.Headers["authorization"] != "Bearer abc" {
			t.Errorf("the request arrived as %+v", got)
		}
		if got.Expiration == "" {
			t.Error("the client's timeout was not sent as the expiration")
		}
		if res.ContentLength != int64(len(raw)) {
			t.Errorf("content length %d, body %d bytes", res.ContentLength, len(raw))
		}
	})
	t.Run("status and retry-after", func(t *testing.T) {
		res, err := client.Post("amqprpc://wire-test/status.503", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 503 || res.Status != "503 Service Unavailable" || res.Header.Get("Retry-After") != "5" {
			t.Errorf("status %q, retry-after %q", res.Status, res.Header.Get("Retry-After"))
		}
	})
	t.Run("no reply within the timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "POST", "amqprpc://wire-test/ignore", nil)
		if _, err := client.Do(req); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("got %v, want the context's deadline", err)
		}
	})
	t.Run("no queue", func(t *testing.T) {
		_, err := client.Post("amqprpc://no-such-queue/healthz", "", nil)
		if !errors.Is(err, amqprpc.ErrNoRoute) {
			t.Errorf("got %v, want ErrNoRoute", err)
		}
	})
}

// TestVegeta drives the transport as the runner's load does: a vegeta
// attack at a constant rate, every result a success with the reply's
// body as its bytes in.
func TestVegeta(t *testing.T) {
	url := brokerURL(t)
	respond(t, url, "wire-vegeta")
	tr := amqpwire.New(url, 2)
	t.Cleanup(func() { _ = tr.Close() })
	attacker := vegeta.NewAttacker(vegeta.Client(&http.Client{Transport: tr}), vegeta.Timeout(10*time.Second))
	targeter := vegeta.NewStaticTargeter(vegeta.Target{Method: "POST", URL: "amqprpc://wire-vegeta/healthz"})
	var m vegeta.Metrics
	for res := range attacker.Attack(targeter, vegeta.Rate{Freq: 50, Per: time.Second}, time.Second, "amqp") {
		m.Add(res)
	}
	m.Close()
	if m.Requests != 50 || m.Success != 1 || m.StatusCodes["200"] != 50 || m.BytesIn.Total == 0 {
		t.Errorf("%d requests, success %.2f, codes %v, %d bytes in; errors %v", m.Requests, m.Success, m.StatusCodes, m.BytesIn.Total, m.Errors)
	}
}

// TestReconnect restarts the broker: a call on a connection it closed
// fails, and a later call dials again and is answered.
func TestReconnect(t *testing.T) {
	b := startBroker(t)
	respond(t, b.URL(), "wire-restart")
	tr := amqpwire.New(b.URL(), 1)
	t.Cleanup(func() { _ = tr.Close() })
	client := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	post := func() (int, error) {
		res, err := client.Post("amqprpc://wire-restart/healthz", "", nil)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	}
	if status, err := post(); err != nil || status != 200 {
		t.Fatalf("before the restart: %d, %v", status, err)
	}
	if err := b.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	respond(t, b.URL(), "wire-restart")
	var last error
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		status, err := post()
		if err == nil && status == 200 {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no answer within 60 s of the restart; last error: %v", last)
}
