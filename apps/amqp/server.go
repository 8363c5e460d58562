package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"runtime/debug"
	"strconv"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/metrics"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// Server answers request messages: it looks up the operation a message's
// type names (routes.go), holds it to its deadline, its size limit and
// its access rule, runs it, and writes the reply. It knows nothing of
// connections and channels (consumer.go).
type Server struct {
	logger  *slog.Logger
	tokens  *auth.Tokens
	timeout time.Duration
	metrics *metrics.Metrics
	ops     map[string]operation
	debug   bool
}

// NewServer returns the app's request handler over store: timeout
// (REQUEST_TIMEOUT) caps every request's deadline, m records every
// answer.
func NewServer(logger *slog.Logger, store *db.Store, tokens *auth.Tokens, timeout time.Duration, m *metrics.Metrics) *Server {
	return &Server{
		logger:  logger,
		tokens:  tokens,
		timeout: timeout,
		metrics: m,
		ops:     operations(store, tokens),
		// Decided once, as the HTTP apps' middleware does: the level is
		// fixed at start-up.
		debug: logger.Enabled(context.Background(), slog.LevelDebug),
	}
}

// request is a request message as the operations see it.
type request struct {
	op          string     // the message's type
	headers     amqp.Table // the token and the parameters
	contentType string
	body        []byte
}

// reply is an answer before it becomes a message: status is HTTP's
// vocabulary, body is empty for 204.
type reply struct {
	status      int
	contentType string
	body        []byte
	retryAfter  bool
}

// Handle answers the request message d: the reply to publish on its
// reply-to, carrying its correlation id. ctx ends the request early only
// when its caller gives up; the request's own deadline is the message's
// expiration (milliseconds), capped by REQUEST_TIMEOUT.
func (s *Server) Handle(ctx context.Context, d *amqp.Delivery) amqp.Publishing {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.deadline(d.Expiration))
	defer cancel()
	req := &request{op: d.Type, headers: d.Headers, contentType: d.ContentType, body: d.Body}
	rep := s.answer(ctx, req)

	label := req.op
	if _, ok := s.ops[label]; !ok {
		// Unknown types share one label, so that a client's typos cannot
		// grow the label set without bound.
		label = metrics.Unmatched
	}
	took := time.Since(start)
	s.metrics.ObserveMessage(label, rep.status, took)
	if s.debug {
		s.logger.LogAttrs(ctx, slog.LevelDebug, "message", slog.String("type", req.op), slog.Int("status", rep.status), slog.Duration("duration", took))
	}

	headers := amqp.Table{statusHeader: int32(rep.status)}
	if rep.retryAfter {
		headers[retryAfterHeader] = serve.RetryAfter
	}
	return amqp.Publishing{
		Headers:       headers,
		ContentType:   rep.contentType,
		DeliveryMode:  amqp.Transient,
		CorrelationId: d.CorrelationId,
		Type:          d.Type,
		Body:          rep.body,
	}
}

// The reply's headers.
const (
	// statusHeader carries the answer's status, a 32-bit integer in
	// HTTP's vocabulary (200, 404, 503).
	statusHeader = "status"
	// retryAfterHeader comes with a 503: seconds to wait, as HTTP's
	// Retry-After.
	retryAfterHeader = "retry-after"
)

// deadline is the request's time: REQUEST_TIMEOUT, or less when the
// message's expiration (milliseconds, as RabbitMQ reads it) is shorter.
// The expiration counts from publication; the app can count only from
// receipt, so a message that waited in the queue gets more than its
// sender allowed. RabbitMQ drops one whose expiration passed while it
// waited, which is then not answered at all.
func (s *Server) deadline(expiration string) time.Duration {
	ms, err := strconv.ParseInt(expiration, 10, 64)
	if err != nil || ms < 0 || time.Duration(ms) >= s.timeout/time.Millisecond {
		return s.timeout
	}
	return time.Duration(ms) * time.Millisecond
}

// answer runs the request's operation and turns its result or error into
// a reply; a panic is a 500, its stack in the log.
func (s *Server) answer(ctx context.Context, req *request) (rep reply) {
	defer func() {
		if p := recover(); p != nil {
			s.logger.ErrorContext(ctx, "panic", "type", req.op, "panic", p, "stack", string(debug.Stack()))
			rep = problemReply(req, 500, "", nil)
		}
	}()
	op, ok := s.ops[req.op]
	if !ok {
		return s.fail(ctx, req, operation{}, s.unknownOperation(req.op))
	}
	if len(req.body) > serve.MaxBodyBytes {
		return s.fail(ctx, req, op, httpproblem.TooLarge)
	}
	ctx, err := s.authorize(ctx, op.access, req)
	if err != nil {
		return s.fail(ctx, req, op, err)
	}
	status, v, err := op.handle(ctx, req)
	if err != nil {
		return s.fail(ctx, req, op, err)
	}
	if v == nil {
		return reply{status: status}
	}
	body, err := json.Marshal(v)
	if err != nil {
		return s.fail(ctx, req, op, db.Errorf(db.EINTERNAL, "encode the answer: %v", err))
	}
	return reply{status: status, contentType: "application/json", body: body}
}
