// Command dbctl prepares a crudbench database: it migrates the schema,
// seeds the deterministic dataset, or resets it, given DATABASE_URL.
//
//	go run ./db/dbctl migrate       # apply the migrations
//	go run ./db/dbctl seed          # migrate, then seed if the database is empty (idempotent)
//	go run ./db/dbctl reset         # migrate, empty every table, seed again
//
// SEED_PERSONS sets the size (default 500); SEED_VIEWER_PASSWORD and
// SEED_EDITOR_PASSWORD the users' passwords (dev defaults: viewer, editor).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"crudbench/db"
	"crudbench/db/seed"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dbctl:", err)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dbctl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("database-url", getenv("DATABASE_URL"), "PostgreSQL URL (env DATABASE_URL)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dbctl [-database-url URL] migrate|seed|reset")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("want exactly one command: migrate, seed or reset")
	}
	if *url == "" {
		return errors.New("no database: set DATABASE_URL or -database-url")
	}
	cmd := fs.Arg(0)
	if cmd != "migrate" && cmd != "seed" && cmd != "reset" {
		return fmt.Errorf("unknown command %q: want migrate, seed or reset", cmd)
	}
	cfg, err := seed.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}

	// The database may still be starting (docker compose): retry briefly.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = db.Migrate(ctx, *url)
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "migrated")
	if cmd == "migrate" {
		return nil
	}
	if cmd == "reset" {
		if err := seed.Reset(ctx, *url); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "emptied every table")
	}
	start := time.Now()
	st, err := seed.Load(ctx, *url, cfg)
	if err != nil {
		return err
	}
	if st.Skipped {
		fmt.Fprintln(stdout, "already seeded: rows left as they are (users' passwords set); use reset to reseed")
		return nil
	}
	fmt.Fprintf(stdout, "seeded in %v: %d payers, %d persons, %d appointments, %d stipends, %d fundings, %d vacancies, %d users\n",
		time.Since(start).Round(time.Millisecond), st.Payers, st.Persons, st.Appointments, st.Stipends, st.Fundings, st.Vacancies, st.Users)
	return nil
}
