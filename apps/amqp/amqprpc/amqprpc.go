// Package amqprpc is a client of the amqp app's request/reply protocol
// (docs/contract.md, kind amqp): it publishes a request to the request
// queue with a correlation id and RabbitMQ's direct reply-to, and hands
// the reply with the same correlation id back to the call that waits for
// it. One Client is one connection and one channel, and carries any
// number of calls at once. The app's tests, its walk-through command
// (cmd/amqpcall) and the runner use it.
package amqprpc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// DefaultQueue is the app's request queue unless AMQP_QUEUE names another.
const DefaultQueue = "crudbench.requests"

// replyTo is RabbitMQ's direct reply-to pseudo-queue: replies go straight
// to the channel that consumes it, without a queue of their own.
const replyTo = "amq.rabbitmq.reply-to"

// Errors a call can end with besides its context's.
var (
	// ErrNoRoute is a request the broker could not route: the request
	// queue does not exist (no app has declared it yet).
	ErrNoRoute = errors.New("amqprpc: the broker has no request queue to route the request to")
	// ErrClosed is a call on, or cut off by, a closed connection.
	ErrClosed = errors.New("amqprpc: the connection is closed")
)

// Request is one call: the operation (the message's type), the
// parameters REST takes in the path and the query (headers of the same
// names: id, limit, after, q, status), the token, and REST's JSON body.
type Request struct {
	Type   string
	Params map[string]string
	Token  string // sent as the header authorization: Bearer <token>
	Body   []byte
	// ContentType is the body's; empty is application/json when there is
	// a body.
	ContentType string
	// Headers are sent as they are, after Params and the token: a test's
	// way to send what a careful client would not.
	Headers amqp.Table
	// Expiration, when set, is sent as the message's expiration instead
	// of what is left of ctx's deadline.
	Expiration time.Duration
}

// Reply is the app's answer.
type Reply struct {
	Status      int // the status header, HTTP's vocabulary
	ContentType string
	Body        []byte
	RetryAfter  string // the retry-after header of a 503, seconds
}

// Client is a connection to the broker for calls to the app.
type Client struct {
	conn  *amqp.Connection
	ch    *amqp.Channel
	queue string

	next    atomic.Uint64
	mu      sync.Mutex
	pending map[string]chan result
	closed  bool
	done    chan struct{} // closed once the dispatcher has ended
}

type result struct {
	reply Reply
	err   error
}

// Dial connects to the broker at url for calls to the app consuming
// queue (empty: DefaultQueue).
func Dial(url, queue string) (*Client, error) {
	if queue == "" {
		queue = DefaultQueue
	}
	conn, err := amqp.DialConfig(url, amqp.Config{Heartbeat: 10 * time.Second, Dial: amqp.DefaultDial(5 * time.Second)})
	if err != nil {
		return nil, fmt.Errorf("amqprpc: connect: %w", err)
	}
	ch, err := conn.Channel()
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("amqprpc: open a channel: %w", err)
	}
	// Direct reply-to wants no-ack consumption, before the first publish
	// that names it.
	replies, err := ch.Consume(replyTo, "", true, false, false, false, nil)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("amqprpc: consume %s: %w", replyTo, err)
	}
	returns := ch.NotifyReturn(make(chan amqp.Return, 16))
	c := &Client{conn: conn, ch: ch, queue: queue, pending: map[string]chan result{}, done: make(chan struct{})}
	go c.dispatch(replies, returns)
	return c, nil
}

// dispatch hands each reply, and each request the broker returned
// unrouted, to the call waiting for its correlation id, until the
// connection closes; then it ends every call still waiting.
func (c *Client) dispatch(replies <-chan amqp.Delivery, returns <-chan amqp.Return) {
	defer close(c.done)
	for replies != nil || returns != nil {
		select {
		case d, ok := <-replies:
			if !ok {
				replies = nil
				continue
			}
			c.finish(d.CorrelationId, result{reply: replyOf(d)})
		case r, ok := <-returns:
			if !ok {
				returns = nil
				continue
			}
			c.finish(r.CorrelationId, result{err: ErrNoRoute})
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for id, wait := range c.pending {
		wait <- result{err: ErrClosed}
		delete(c.pending, id)
	}
}

func (c *Client) finish(id string, r result) {
	c.mu.Lock()
	wait, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ok {
		wait <- r
	}
}

// replyOf reads a reply message.
func replyOf(d amqp.Delivery) Reply {
	r := Reply{ContentType: d.ContentType, Body: d.Body}
	switch v := d.Headers["status"].(type) {
	case int32:
		r.Status = int(v)
	case int64:
		r.Status = int(v)
	case int16:
		r.Status = int(v)
	case int:
		r.Status = v
	}
	r.RetryAfter, _ = d.Headers["retry-after"].(string)
	return r
}

// Call sends req and waits for its reply until ctx ends. ctx's deadline,
// if it has one, is sent as the message's expiration (unless
// req.Expiration is set): the broker drops a request that waited longer
// in the queue, and the app answers within it.
func (c *Client) Call(ctx context.Context, req Request) (Reply, error) {
	id := strconv.FormatUint(c.next.Add(1), 36)
	wait := make(chan result, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return Reply{}, ErrClosed
	}
	c.pending[id] = wait
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	headers := amqp.Table{}
	for k, v := range req.Params {
		headers[k] = v
	}
	if req.Token != "" {
		headers["authorization"] = "Bearer " + req.Token
	}
	for k, v := range req.Headers {
		headers[k] = v
	}
	msg := amqp.Publishing{
		Headers:       headers,
		ContentType:   req.ContentType,
		DeliveryMode:  amqp.Transient,
		CorrelationId: id,
		ReplyTo:       replyTo,
		Type:          req.Type,
		Body:          req.Body,
	}
	if msg.ContentType == "" && req.Body != nil {
		msg.ContentType = "application/json"
	}
	if deadline, ok := ctx.Deadline(); ok {
		msg.Expiration = strconv.FormatInt(max(time.Until(deadline).Milliseconds(), 1), 10)
	}
	if req.Expiration > 0 {
		msg.Expiration = strconv.FormatInt(max(req.Expiration.Milliseconds(), 1), 10)
	}
	// Mandatory: a request no queue takes comes back (ErrNoRoute) instead
	// of vanishing.
	if err := c.ch.PublishWithContext(ctx, "", c.queue, true, false, msg); err != nil {
		if errors.Is(err, amqp.ErrClosed) {
			return Reply{}, ErrClosed
		}
		return Reply{}, fmt.Errorf("amqprpc: publish: %w", err)
	}
	select {
	case r := <-wait:
		return r.reply, r.err
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}

// Close closes the connection; calls still waiting end with ErrClosed.
func (c *Client) Close() error {
	err := c.conn.Close()
	<-c.done
	if errors.Is(err, amqp.ErrClosed) {
		return nil
	}
	return err
}
