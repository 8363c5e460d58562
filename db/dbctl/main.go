// Command dbctl prepares a crudbench database: it migrates the schema,
// seeds the deterministic dataset, or resets it, given DATABASE_URL.
//
//	go run ./db/dbctl migrate       # apply the migrations
//	go run ./db/dbctl seed          # migrate, then seed if the database is empty (idempotent)
//	go run ./db/dbctl reset         # migrate, empty every table, seed again
//	go run ./db/dbctl temp          # no server at hand: a seeded throwaway cluster until Ctrl-C
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
	"crudbench/db/pgtemp"
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
		fmt.Fprintln(stderr, "usage: dbctl [-database-url URL] migrate|seed|reset|temp")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("want exactly one command: migrate, seed, reset or temp")
	}
	cmd := fs.Arg(0)
	if cmd != "migrate" && cmd != "seed" && cmd != "reset" && cmd != "temp" {
		return fmt.Errorf("unknown command %q: want migrate, seed, reset or temp", cmd)
	}
	cfg, err := seed.ConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	if cmd == "temp" {
		return temp(ctx, cfg, stdout, stderr)
	}
	if *url == "" {
		return errors.New("no database: set DATABASE_URL or -database-url (or use dbctl temp)")
	}
	return prepare(ctx, *url, cmd, cfg, stdout)
}

// prepare migrates the database at url and, for seed and reset, seeds it.
func prepare(ctx context.Context, url, cmd string, cfg seed.Config, stdout io.Writer) error {
	// The database may still be starting (docker compose): retry briefly.
	var err error
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = db.Migrate(ctx, url)
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
		if err := seed.Reset(ctx, url); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "emptied every table")
	}
	start := time.Now()
	st, err := seed.Load(ctx, url, cfg)
	if err != nil {
		return err
	}
	if st.Skipped {
		fmt.Fprintf(stdout, "already seeded: rows left as they are (%d users' password or role updated); use reset to reseed\n", st.Users)
		return nil
	}
	fmt.Fprintf(stdout, "seeded in %v: %d payers, %d persons, %d appointments, %d stipends, %d fundings, %d vacancies, %d users\n",
		time.Since(start).Round(time.Millisecond), st.Payers, st.Persons, st.Appointments, st.Stipends, st.Fundings, st.Vacancies, st.Users)
	return nil
}

// temp starts a throwaway cluster from the local server binaries, seeds its
// postgres database, prints its URL and keeps it until ctx ends
// (Ctrl-C); then everything is removed.
func temp(ctx context.Context, cfg seed.Config, stdout, stderr io.Writer) error {
	c, err := pgtemp.Start(ctx, pgtemp.Options{})
	if err != nil {
		return err
	}
	defer c.Stop()
	url := c.URL("postgres")
	if err := prepare(ctx, url, "seed", cfg, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nA throwaway PostgreSQL is running (unix socket only). In another terminal:\n\n")
	fmt.Fprintf(stdout, "  export DATABASE_URL='%s'\n  go run ./apps/rest    # or ./apps/graphql, ./apps/htmx\n\n", url)
	fmt.Fprintln(stdout, "Press Ctrl-C to stop it and remove its data.")
	<-ctx.Done()
	fmt.Fprintln(stderr, "stopping the throwaway cluster")
	return nil
}
