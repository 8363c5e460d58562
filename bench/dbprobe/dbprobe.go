// Package dbprobe reads what the bench needs to know from the PostgreSQL
// server the apps use: how many SQL statements it ran (pg_stat_statements),
// its version and process, and the dataset it holds.
package dbprobe

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"crudbench/bench/sampler"
)

// Tables are the dataset's tables, counted for the report.
var Tables = []string{"payer", "person", "appointment", "stipend", "funding", "vacancy", "app_user"}

// Probe is one connection to the apps' database.
type Probe struct {
	conn *pgx.Conn
}

// Open connects to the database at url.
func Open(ctx context.Context, url string) (*Probe, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("connect to the database: %w", err)
	}
	return &Probe{conn: conn}, nil
}

// Close closes the connection.
func (p *Probe) Close() { p.conn.Close(context.Background()) }

// EnableStatements makes pg_stat_statements readable in this database,
// creating the extension when it is missing. It fails when the server does
// not preload the module (shared_preload_libraries) or the user may not
// create the extension: statements per request are then unavailable.
// Several runners (shards) may start on one database at once, and two
// concurrent CREATE EXTENSION IF NOT EXISTS can still collide: a readable
// view is taken as is, and is read again after a failed create.
func (p *Probe) EnableStatements(ctx context.Context) error {
	if _, err := p.Statements(ctx); err == nil {
		return nil
	}
	if _, err := p.conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		if _, again := p.Statements(ctx); again == nil {
			return nil // another runner created it meanwhile
		}
		return fmt.Errorf("pg_stat_statements: %w", err)
	}
	_, err := p.Statements(ctx)
	return err
}

// statementsQuery sums the calls of every statement run in this database.
// The probe's own reads mention pg_stat_statements and are left out, so a
// delta counts what the apps sent.
const statementsQuery = `SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND query NOT LIKE '%pg_stat_statements%'`

// Statements returns the number of statements the database has run so far
// (pg_stat_statements, the probe's own left out). Only differences mean
// anything: take one before and one after a window.
func (p *Probe) Statements(ctx context.Context) (uint64, error) {
	var n int64
	if err := p.conn.QueryRow(ctx, statementsQuery).Scan(&n); err != nil {
		return 0, fmt.Errorf("pg_stat_statements: %w", err)
	}
	return uint64(n), nil
}

// ServerVersion returns the server's version, e.g. "15.14 (Debian 15.14-0+deb12u1)".
func (p *Probe) ServerVersion(ctx context.Context) (string, error) {
	var v string
	err := p.conn.QueryRow(ctx, "SHOW server_version").Scan(&v)
	return v, err
}

// HasSchema reports whether the crudbench tables exist.
func (p *Probe) HasSchema(ctx context.Context) (bool, error) {
	var ok bool
	err := p.conn.QueryRow(ctx, "SELECT to_regclass('public.person') IS NOT NULL").Scan(&ok)
	return ok, err
}

// Dataset counts the rows of every table of Tables.
func (p *Probe) Dataset(ctx context.Context) (map[string]int64, error) {
	out := make(map[string]int64, len(Tables))
	for _, t := range Tables {
		var n int64
		// The names come from Tables, never from input.
		if err := p.conn.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{t}.Sanitize()).Scan(&n); err != nil {
			return nil, fmt.Errorf("count %s: %w", t, err)
		}
		out[t] = n
	}
	return out, nil
}

// CountVacancies counts the vacancy rows.
func (p *Probe) CountVacancies(ctx context.Context) (int64, error) {
	var n int64
	err := p.conn.QueryRow(ctx, "SELECT count(*) FROM vacancy").Scan(&n)
	return n, err
}

// VacanciesTitled returns the ids of the vacancies whose title starts with
// prefix: the rows a write run made, found even when their create's answer
// was lost.
func (p *Probe) VacanciesTitled(ctx context.Context, prefix string) ([]int64, error) {
	pattern := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(prefix) + "%"
	rows, err := p.conn.Query(ctx, "SELECT id FROM vacancy WHERE title LIKE $1 ORDER BY id", pattern)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// ServerPID returns the postmaster's process id when the server runs on
// this machine and its processes are visible in /proc: the probe's own
// backend is a child of the postmaster. It fails otherwise (another host,
// another PID namespace), and the server's CPU is then not sampled.
func (p *Probe) ServerPID(ctx context.Context) (int, error) {
	var backend int
	if err := p.conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return 0, err
	}
	comm, ppid, err := sampler.CommAndParent(backend)
	if err != nil || comm != "postgres" {
		return 0, fmt.Errorf("the database server's processes are not visible here (backend %d)", backend)
	}
	if parent, _, err := sampler.CommAndParent(ppid); err != nil || parent != "postgres" {
		return 0, fmt.Errorf("the database server's postmaster is not visible here (pid %d)", ppid)
	}
	return ppid, nil
}
