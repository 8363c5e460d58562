package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"crudbench/db"
)

// MaxBodyBytes caps every request body in every app; a larger one is
// answered 413 in the app's own error format. One limit for every Go HTTP
// app (the Node apps set the same), so that none accepts more than another.
const MaxBodyBytes = 1 << 20

// RetryAfter is the Retry-After value (seconds) every app sends with a 503
// for an unavailable database: long enough for a restart or failover to
// show, short enough that a client's retry finds the recovered app.
const RetryAfter = "5"

// RequestIDHeader carries a request's ID. A usable ID set by a proxy in
// front is kept, otherwise the app makes one; either way it is sent back in
// the response and written in every log line about the request, so that a
// client's report and the app's log name the same request.
const RequestIDHeader = "X-Request-ID"

// Stack is the middleware policy every app puts around its routes, so that
// the Go HTTP apps differ only in their transport. Each app supplies its own
// error writers; the rest is shared.
type Stack struct {
	Logger *slog.Logger
	// Timeout is every request's deadline (REQUEST_TIMEOUT).
	Timeout time.Duration
	// OnPanic writes the app's 500 (see Recover).
	OnPanic func(http.ResponseWriter, *http.Request)
	// OnTooLarge writes the app's 413 (see LimitBody).
	OnTooLarge func(http.ResponseWriter, *http.Request)
}

// Wrap returns h behind the stack, outermost first: Recover (a panic
// anywhere below is answered), RequestID (everything below can log it),
// Deadline, LimitBody and LogRequests (which then times the handler alone).
func (s Stack) Wrap(h http.Handler) http.Handler {
	h = LogRequests(s.Logger, h)
	h = LimitBody(MaxBodyBytes, s.OnTooLarge, h)
	h = Deadline(s.Timeout, h)
	h = RequestID(h)
	return Recover(s.Logger, s.OnPanic, h)
}

// requestKey finds a request's *requestInfo in its context.
type requestKey struct{}

// requestInfo is what LogError and LogRequests say about a request; GraphQL
// resolvers have its context but not the request.
type requestInfo struct {
	id, method, path string
}

// idPrefix makes IDs unique across processes and restarts; a counter makes
// them unique within one.
var (
	idPrefix  = newIDPrefix()
	idCounter atomic.Uint64
)

func newIDPrefix() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b) + "-"
}

// RequestID gives each request an ID (see RequestIDHeader), sets it on the
// response and keeps it in the request's context for the log.
func RequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(RequestIDHeader)
		if !usableRequestID(id) {
			id = idPrefix + strconv.FormatUint(idCounter.Add(1), 10)
		}
		w.Header().Set(RequestIDHeader, id)
		info := &requestInfo{id: id, method: r.Method, path: r.URL.Path}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey{}, info)))
	})
}

// usableRequestID accepts 1 to 64 letters, digits and -_.: so that an ID
// from outside can neither flood nor garble a log line.
func usableRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}

// requestAttrs are the log attributes naming the request of ctx.
func requestAttrs(ctx context.Context) []slog.Attr {
	info, ok := ctx.Value(requestKey{}).(*requestInfo)
	if !ok {
		return nil
	}
	return []slog.Attr{
		slog.String("request_id", info.id),
		slog.String("method", info.method),
		slog.String("path", info.path),
	}
}

// Deadline gives each request a deadline d after it starts (d must be
// positive). The request's context expires then, and with it every database
// call made with it, waiting for a pool connection included: a database that
// hangs costs a request d, never longer, and the app answers 503 (the Store
// reports such a call as db.EUNAVAILABLE). Reading the request's body is
// bounded by the same deadline (boundBodyRead).
func Deadline(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		r = r.WithContext(ctx)
		boundBodyRead(w, r)
		next.ServeHTTP(w, r)
	})
}

// LimitBody caps request bodies at max bytes. A body that announces more
// (Content-Length) is answered by onTooLarge, the app's 413, before anything
// reads it; a body of unknown length that grows past max fails the handler's
// read with *http.MaxBytesError, which the app answers with the same 413.
func LimitBody(max int64, onTooLarge func(http.ResponseWriter, *http.Request), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			onTooLarge(w, r)
			return
		}
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		limited := *r
		limited.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, &limited)
	})
}

// LogError logs an error a translator answered (the db.ErrorOf value it
// read) when the fault is the server's: db.EINTERNAL at error level
// ("internal error") and db.EUNAVAILABLE at warn level ("database
// unavailable"), with the request's ID, method and path, the error and its
// cause (which the error's message leaves out because clients see it). The
// client's own mistakes (bad input, not found, conflicts, bad credentials)
// are answers, not faults, and are not logged. attrs add what only the
// transport knows, such as a GraphQL field path.
func LogError(ctx context.Context, logger *slog.Logger, e *db.Error, attrs ...slog.Attr) {
	level, msg := slog.LevelError, "internal error"
	switch e.Code {
	case db.EINTERNAL:
	case db.EUNAVAILABLE:
		level, msg = slog.LevelWarn, "database unavailable"
	default:
		return
	}
	attrs = append(requestAttrs(ctx), append(attrs, slog.String("error", e.Error()))...)
	if e.Err != nil {
		attrs = append(attrs, slog.String("cause", e.Err.Error()))
	}
	logger.LogAttrs(ctx, level, msg, attrs...)
}

// LogRequests logs each request's ID, method, path, status, response bytes
// and duration at debug level. When logger is not enabled for debug it
// returns next unchanged, so request logging costs nothing in benchmarks.
func LogRequests(logger *slog.Logger, next http.Handler) http.Handler {
	if !logger.Enabled(context.Background(), slog.LevelDebug) {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := Record(w)
		next.ServeHTTP(rec, r)
		attrs := requestAttrs(r.Context())
		if attrs == nil {
			attrs = []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path)}
		}
		logger.LogAttrs(r.Context(), slog.LevelDebug, "request", append(attrs,
			slog.Int("status", rec.Status()),
			slog.Int64("bytes", rec.Bytes()),
			slog.Duration("duration", time.Since(start)),
		)...)
	})
}

// Recorder is a ResponseWriter that remembers the status and size of the
// response written through it, for the middleware that reports them
// (LogRequests, the metrics package's request histogram).
type Recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

// Record returns w as a Recorder: w itself when it already is one (a
// middleware further out records the same response), so that a response
// is wrapped once however many middlewares read its status.
func Record(w http.ResponseWriter) *Recorder {
	if rec, ok := w.(*Recorder); ok {
		return rec
	}
	return &Recorder{ResponseWriter: w}
}

// Status is the response's status so far: 200 when nothing was written, as
// net/http then answers.
func (rec *Recorder) Status() int {
	if rec.status == 0 {
		return http.StatusOK
	}
	return rec.status
}

// Bytes is the size of the response body written so far.
func (rec *Recorder) Bytes() int64 { return rec.bytes }

// WriteHeader records the first status written and passes it on.
func (rec *Recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
	rec.ResponseWriter.WriteHeader(status)
}

// Write records an implicit 200 and the bytes written.
func (rec *Recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer (Flush,
// deadlines).
func (rec *Recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// Recover turns a panic in next into a 500 answered by onPanic (each app
// writes its own error shape; nil writes a plain-text 500) and logs the panic
// with its stack at error level, so internals reach the log, never the
// client. http.ErrAbortHandler is passed on: it is net/http's way to abort a
// response on purpose. Recover sits outside RequestID, so it finds the
// request's ID on the response.
func Recover(logger *slog.Logger, onPanic func(http.ResponseWriter, *http.Request), next http.Handler) http.Handler {
	if onPanic == nil {
		onPanic = func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			logger.LogAttrs(r.Context(), slog.LevelError, "panic",
				slog.String("request_id", w.Header().Get(RequestIDHeader)),
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("panic", fmt.Sprint(v)),
				slog.String("stack", string(debug.Stack())),
			)
			onPanic(w, r)
		}()
		next.ServeHTTP(w, r)
	})
}
