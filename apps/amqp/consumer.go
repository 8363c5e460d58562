package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// How the consumer reconnects, and how long it gives what it holds at a stop.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 5 * time.Second
	// stopTimeout is how long the requests held at a stop get to be
	// answered, the HTTP apps' shutdown timeout; the rest go back to the
	// queue unacked when the connection closes.
	stopTimeout = 10 * time.Second
	// heartbeat lets either side notice a dead peer within about twice it.
	heartbeat   = 10 * time.Second
	dialTimeout = 5 * time.Second
)

// consumer connects to the broker, declares the request queue, consumes
// it with a prefetch, and hands each request to handle on a goroutine of
// its own (at most prefetch at once: the broker sends no more unacked).
// It publishes handle's reply on the request's reply-to and only then
// acks the request. When the connection or channel is lost it waits for
// what it holds, then reconnects with backoff, until its context ends.
type consumer struct {
	logger   *slog.Logger
	url      string
	queue    string
	prefetch int
	handle   func(context.Context, *amqp.Delivery) amqp.Publishing

	consuming atomic.Bool
	held      atomic.Int64 // requests taken and not yet answered
}

func newConsumer(logger *slog.Logger, url, queue string, prefetch int, handle func(context.Context, *amqp.Delivery) amqp.Publishing) *consumer {
	return &consumer{logger: logger, url: url, queue: queue, prefetch: prefetch, handle: handle}
}

// Consuming reports whether the consumer is consuming the queue now.
func (c *consumer) Consuming() bool { return c.consuming.Load() }

// Held is how many requests the consumer has taken and not yet answered.
func (c *consumer) Held() int { return int(c.held.Load()) }

// run consumes until ctx ends, reconnecting after every loss. It returns
// nil after a graceful stop, an error when requests were still held at
// the stop's deadline.
func (c *consumer) run(ctx context.Context) error {
	backoff := minBackoff
	for {
		consumed, err := c.session(ctx)
		if ctx.Err() != nil {
			return err
		}
		if consumed {
			backoff = minBackoff
		}
		c.logger.Warn("broker unavailable: reconnecting", "error", err.Error(), "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// session is one connection's life: it returns when the connection is
// lost (consumed tells whether it got as far as consuming) or, after a
// graceful stop, when ctx has ended.
func (c *consumer) session(ctx context.Context) (consumed bool, err error) {
	conn, err := amqp.DialConfig(c.url, amqp.Config{
		Heartbeat:  heartbeat,
		Dial:       amqp.DefaultDial(dialTimeout),
		Properties: amqp.Table{"connection_name": "crudbench amqp app " + strconv.Itoa(os.Getpid())},
	})
	if err != nil {
		return false, fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return false, fmt.Errorf("open a channel: %w", err)
	}
	if err := ch.Qos(c.prefetch, 0, false); err != nil {
		return false, fmt.Errorf("set the prefetch: %w", err)
	}
	// Durable, so that it outlives a broker restart and requests sent
	// before this app is back are routed to it; not exclusive nor
	// auto-delete, so that replicas share it. Requests themselves are
	// transient (see the README).
	if _, err := ch.QueueDeclare(c.queue, true, false, false, false, nil); err != nil {
		return false, fmt.Errorf("declare the queue %s: %w", c.queue, err)
	}
	tag := "crudbench-amqp-" + strconv.Itoa(os.Getpid())
	deliveries, err := ch.Consume(c.queue, tag, false, false, false, false, nil)
	if err != nil {
		return false, fmt.Errorf("consume %s: %w", c.queue, err)
	}
	lost := conn.NotifyClose(make(chan *amqp.Error, 1))
	c.consuming.Store(true)
	defer c.consuming.Store(false)
	c.logger.Info("consuming", "queue", c.queue, "prefetch", c.prefetch)

	// Requests run on a context of their own, so that a stop lets them
	// finish: each has its deadline (Server.Handle).
	base := context.WithoutCancel(ctx)
	var held sync.WaitGroup
	for {
		select {
		case d, ok := <-deliveries:
			if !ok {
				held.Wait()
				return true, lostError(lost)
			}
			held.Go(func() { c.serve(base, ch, &d) })
		case <-ctx.Done():
			return true, c.stop(ch, tag, deliveries, &held, base)
		}
	}
}

// stop cancels the consumer, so that the broker sends no more, answers
// what it sent before the cancel took effect, and waits for every held
// request up to stopTimeout. What is still held then is not acked: the
// connection's close gives it back to the queue.
func (c *consumer) stop(ch *amqp.Channel, tag string, deliveries <-chan amqp.Delivery, held *sync.WaitGroup, base context.Context) error {
	c.consuming.Store(false)
	c.logger.Info("stopping: answering the requests held", "timeout", stopTimeout)
	if err := ch.Cancel(tag, false); err != nil {
		c.logger.Warn("cancel the consumer", "error", err.Error())
	}
	for d := range deliveries {
		held.Go(func() { c.serve(base, ch, &d) })
	}
	done := make(chan struct{})
	go func() { held.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(stopTimeout):
		return errors.New("stop: requests were still held at the deadline; they go back to the queue")
	}
}

// serve answers one request: a message without a reply-to cannot be
// answered and is rejected (dead-lettered where the queue has that, else
// dropped); every other is answered on its reply-to and then acked. A
// reply that cannot be published leaves the request unacked, for the
// broker to give it again once the channel is gone.
func (c *consumer) serve(ctx context.Context, ch *amqp.Channel, d *amqp.Delivery) {
	c.held.Add(1)
	defer c.held.Add(-1)
	if d.ReplyTo == "" {
		c.logger.Warn("a request without reply-to: rejected", "type", d.Type, "correlation_id", d.CorrelationId)
		_ = d.Reject(false)
		return
	}
	reply := c.handle(ctx, d)
	pubCtx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	if err := ch.PublishWithContext(pubCtx, "", d.ReplyTo, false, false, reply); err != nil {
		c.logger.Warn("publish a reply", "error", err.Error(), "type", d.Type)
		return
	}
	if err := d.Ack(false); err != nil {
		c.logger.Warn("ack a request", "error", err.Error(), "type", d.Type)
	}
}

// lostError says why the deliveries stopped.
func lostError(lost <-chan *amqp.Error) error {
	select {
	case err, ok := <-lost:
		if ok && err != nil {
			return fmt.Errorf("connection lost: %w", err)
		}
	case <-time.After(time.Second):
	}
	return errors.New("the broker closed the channel")
}
