// Package dbtest gives each test its own PostgreSQL database, cloned from a
// migrated (and optionally seeded) template, so tests run against the real
// server, in parallel, without seeing each other's rows.
//
// The server is TEST_DATABASE_URL when set (a superuser URL; databases are
// created and dropped on it). Otherwise each test binary starts one throwaway
// cluster from the local PostgreSQL server binaries (package pgtemp); call
// Main from TestMain so it is stopped when the tests end. Neither available
// fails the test with a message that says what to install: it never skips.
package dbtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for pgtestdb
	"github.com/peterldowns/pgtestdb"

	"crudbench/db"
	"crudbench/db/migrations"
	"crudbench/db/pgtemp"
	"crudbench/db/seed"
)

// Persons is the size of the seeded template: the default dataset, so that
// tests see what the benchmark sees (the showcase person included).
const Persons = seed.DefaultPersons

var (
	serverOnce sync.Once
	server     pgtestdb.Config
	serverErr  error
	cluster    *pgtemp.Cluster
)

// Main runs the tests of m and stops the throwaway cluster, if one was
// started. Use it as: func TestMain(m *testing.M) { dbtest.Main(m) }.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run is Main without the exit: it returns m's exit code, for a TestMain
// that has more to stop after the tests (a throwaway broker).
func Run(m *testing.M) int {
	code := m.Run()
	if cluster != nil {
		if err := cluster.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "dbtest: stopping the test cluster:", err)
		}
	}
	return code
}

// Empty returns the URL of a new database with the schema and no rows. It
// is dropped when the test passes (kept for inspection when it fails).
func Empty(t testing.TB) string {
	t.Helper()
	return newDB(t, migrator{})
}

// Seeded returns the URL of a new database with the schema and the default
// seed dataset (users viewer/viewer and editor/editor).
func Seeded(t testing.TB) string {
	t.Helper()
	return newDB(t, migrator{seeded: true})
}

// Store opens a Store on url for the duration of the test.
func Store(t testing.TB, url string, opts db.Options) *db.Store {
	t.Helper()
	s, err := db.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("dbtest: open store: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

func newDB(t testing.TB, m migrator) string {
	t.Helper()
	serverOnce.Do(func() { server, serverErr = startServer() })
	if serverErr != nil {
		t.Fatalf("dbtest: no PostgreSQL for tests: %v", serverErr)
	}
	conf := pgtestdb.Custom(t, server, m)
	return conf.URL()
}

func startServer() (pgtestdb.Config, error) {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return configOf(u)
	}
	if _, err := pgtemp.FindBinDir(); err != nil {
		return pgtestdb.Config{}, fmt.Errorf("%w (or set TEST_DATABASE_URL to a PostgreSQL superuser URL)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := pgtemp.Start(ctx, pgtemp.Options{})
	if err != nil {
		return pgtestdb.Config{}, fmt.Errorf("starting a throwaway cluster: %w", err)
	}
	cluster = c
	return configOf(c.URL("postgres"))
}

// configOf turns a connection URL into pgtestdb's parts; a unix socket
// host travels in the options.
func configOf(raw string) (pgtestdb.Config, error) {
	pc, err := pgconn.ParseConfig(raw)
	if err != nil {
		return pgtestdb.Config{}, fmt.Errorf("TEST_DATABASE_URL: %w", err)
	}
	opts := url.Values{"sslmode": {"disable"}}
	host := pc.Host
	if len(host) > 0 && host[0] == '/' {
		opts.Set("host", host)
		host = ""
	}
	return pgtestdb.Config{
		DriverName: "pgx",
		Host:       host,
		Port:       fmt.Sprint(pc.Port),
		User:       pc.User,
		Password:   pc.Password,
		Database:   pc.Database,
		Options:    opts.Encode(),
		// Tests stop their apps at the end, but a failing test may leave a
		// connection open: drop the database anyway.
		ForceTerminateConnections: true,
	}, nil
}

// migrator builds the template: the goose migrations, then the seed.
type migrator struct{ seeded bool }

// Hash names the template by the migrations' contents and, when seeded,
// by the generated dataset itself, so a changed generator gets a new one.
func (m migrator) Hash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := migrations.FS.ReadFile(path)
		fmt.Fprintf(h, "%s\x00%s\x00", path, b)
		return err
	})
	if err != nil {
		return "", err
	}
	if m.seeded {
		fmt.Fprintf(h, "seed %d %v", Persons, seed.Generate(Persons))
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Migrate applies the migrations and, when seeded, loads the dataset.
func (m migrator) Migrate(ctx context.Context, sqlDB *sql.DB, conf pgtestdb.Config) error {
	p, err := db.NewMigrator(sqlDB)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return err
	}
	if !m.seeded {
		return nil
	}
	_, err = seed.Load(ctx, conf.URL(), seed.Config{
		Persons:        Persons,
		ViewerPassword: seed.DefaultViewerPassword,
		EditorPassword: seed.DefaultEditorPassword,
	})
	return err
}
