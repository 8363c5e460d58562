// Package db is crudbench's shared data layer: the domain types, the one
// error vocabulary, the migrations and the Store every app reads and writes
// through. Apps see only the types of this package; the driver (pgx) and the
// sqlc-generated queries stay inside it.
package db

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"crudbench/db/internal/sqlcdb"
)

// DefaultMaxConns is the pool size every app uses unless told otherwise
// (DB_MAX_CONNS): the same for all three, so that no app wins by having more
// connections.
const DefaultMaxConns = 20

// DefaultTimeout is the statement timeout of a Store opened without one and
// every app's default request deadline (REQUEST_TIMEOUT), which the apps
// also give the Store as its statement timeout: how long a request may wait
// for the database before it is answered 503.
const DefaultTimeout = 5 * time.Second

// Options tune a Store. The zero value gives DefaultMaxConns connections and
// a DefaultTimeout statement timeout.
type Options struct {
	MaxConns int32
	// StatementTimeout is PostgreSQL's statement_timeout: the server stops a
	// statement that runs longer, and the Store reports EUNAVAILABLE. The
	// apps set it to their request deadline, so that the server gives up on
	// a statement when the client does; a server that hangs cannot time
	// out, and there the request's context bounds the wait.
	StatementTimeout time.Duration
	// OnQuery, when set, is called with the SQL of every statement the Store
	// sends (tests count statements per request with it).
	OnQuery func(sql string)
}

// Store reads and writes the staff register. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	q    *sqlcdb.Queries
}

// Open returns a Store over a connection pool to url. It does not connect
// yet: an app may start while the database is down and serves 503 until it
// comes back.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database url: %w", err)
	}
	cfg.MaxConns = opts.MaxConns
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	timeout := opts.StatementTimeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	cfg.ConnConfig.RuntimeParams["statement_timeout"] = fmt.Sprint(timeout.Milliseconds())
	cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	if opts.OnQuery != nil {
		cfg.ConnConfig.Tracer = queryTracer(opts.OnQuery)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database pool: %w", err)
	}
	return &Store{pool: pool, q: sqlcdb.New(pool)}, nil
}

// Close closes every connection.
func (s *Store) Close() { s.pool.Close() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	return translate(s.pool.Ping(ctx))
}

// rollbackTimeout bounds the rollback of a failed transaction.
const rollbackTimeout = time.Second

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(q *sqlcdb.Queries) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return translate(err)
	}
	committing := false
	defer func() {
		if committing {
			return // Commit ends the transaction, whatever its outcome
		}
		// After an error (or a panic) the rollback must not die with the
		// request (that would cost the connection), nor wait for a
		// database that hangs: it gets a short time of its own.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
		defer cancel()
		tx.Rollback(rctx)
	}()
	if err := fn(s.q.WithTx(tx)); err != nil {
		return translate(err)
	}
	committing = true
	return translate(tx.Commit(ctx))
}

type queryTracer func(sql string)

func (t queryTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	t(data.SQL)
	return ctx
}

func (t queryTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
