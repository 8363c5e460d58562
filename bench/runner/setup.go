package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"crudbench/bench/dbprobe"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
	"crudbench/db"
	"crudbench/db/seed"
)

// setup reaches the database and the apps for the mode of the run,
// registering with undo what must be torn down again.
func (r *runner) setup(ctx context.Context, run *results.Run) error {
	cfg := r.cfg
	dbURL := cfg.DatabaseURL
	switch cfg.Mode() {
	case "embedded":
		r.con.printf("Starting a throwaway PostgreSQL cluster and loading the dataset…\n")
		pgLog, err := os.Create(filepath.Join(r.dir, results.LogsDir, "postgres.log"))
		if err != nil {
			return err
		}
		r.undo(pgLog.Close)
		d, err := stack.StartDatabase(ctx, r.cfg.Seed, r.cfg.CPUs.Rest, pgLog)
		if err != nil {
			return fmt.Errorf("embedded database: %w", err)
		}
		r.undo(d.Stop)
		dbURL, r.dbPID = d.URL, d.PID
		r.con.printf("PostgreSQL is up (postmaster pid %d).\n", d.PID)
	case "database":
		if err := r.prepareDatabase(ctx, dbURL); err != nil {
			return err
		}
	}

	if dbURL != "" {
		if err := r.openProbe(ctx, dbURL, run); err != nil {
			return err
		}
		r.undo(func() error { r.probe.Close(); return nil })
	} else {
		r.note("No DATABASE_URL was given in attach mode: SQL statements per request, PostgreSQL CPU and the database checks of validation are unavailable.")
		run.Environment.PostgresVersion = "unknown (no DATABASE_URL)"
		run.Environment.Dataset = map[string]int64{}
	}

	if cfg.Mode() == "attach" {
		if err := r.pinRunner(); err != nil {
			return err
		}
		r.attachBroker()
		r.attach()
		r.watchBroker()
		r.nameBroker(run)
		run.Settings.DBMaxConns = 0
		r.note("Attach mode: the apps were started elsewhere, so their DB_MAX_CONNS and other settings are theirs (settings.dbMaxConns is 0: unknown).")
		r.readCPUs(run)
		return nil
	}
	if err := r.startBroker(ctx); err != nil {
		return err
	}
	if err := r.startApps(ctx, dbURL); err != nil {
		return err
	}
	r.watchBroker()
	r.nameBroker(run)
	r.readCPUs(run)
	return nil
}

// prepareDatabase makes sure the database at url holds the dataset: it
// migrates and seeds an empty one, resets one only with -reset-db, and
// otherwise leaves it exactly as it is.
func (r *runner) prepareDatabase(ctx context.Context, url string) error {
	p, err := dbprobe.Open(ctx, url)
	if err != nil {
		return err
	}
	defer p.Close()
	hasSchema, err := p.HasSchema(ctx)
	if err != nil {
		return fmt.Errorf("inspect the database: %w", err)
	}
	persons := int64(0)
	if hasSchema {
		counts, err := p.Dataset(ctx)
		if err != nil {
			return fmt.Errorf("inspect the database: %w", err)
		}
		persons = counts["person"]
	}
	switch {
	case r.cfg.ResetDB:
		r.con.printf("-reset-db: migrating, emptying and reseeding the database at DATABASE_URL…\n")
		if err := db.Migrate(ctx, url); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if err := seed.Reset(ctx, url); err != nil {
			return fmt.Errorf("reset: %w", err)
		}
	case !hasSchema:
		r.con.printf("The database at DATABASE_URL is empty: migrating it…\n")
		if err := db.Migrate(ctx, url); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	case persons > 0:
		r.con.printf("Using the dataset already in the database at DATABASE_URL (not migrated, not reseeded; -reset-db would reseed it).\n")
		return nil
	}
	r.con.printf("Loading the dataset…\n")
	if _, err := seed.Load(ctx, url, r.cfg.Seed); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	return nil
}

// openProbe connects the statement counter and records what the database
// says about itself.
func (r *runner) openProbe(ctx context.Context, url string, run *results.Run) error {
	p, err := dbprobe.Open(ctx, url)
	if err != nil {
		return err
	}
	r.probe = p
	if err := p.EnableStatements(ctx); err != nil {
		r.note(fmt.Sprintf("SQL statements per request are unavailable: %v (preload it with shared_preload_libraries=pg_stat_statements).", err))
	} else {
		r.statementsOK = true
	}
	if v, err := p.ServerVersion(ctx); err == nil {
		run.Environment.PostgresVersion = v
	}
	if run.Environment.Dataset, err = p.Dataset(ctx); err != nil {
		return fmt.Errorf("the database at DATABASE_URL does not hold the crudbench schema: %w", err)
	}
	if r.dbPID == 0 {
		if pid, err := p.ServerPID(ctx); err == nil {
			r.dbPID = pid
		} else {
			r.note(fmt.Sprintf("PostgreSQL CPU and memory are unavailable: %v.", err))
		}
	}

	store, err := db.Open(ctx, url, db.Options{MaxConns: 2})
	if err != nil {
		return err
	}
	defer store.Close()
	ref, err := scenario.ReferenceFromStore(ctx, store)
	if err != nil {
		// Validation then compares the apps with the dataset the
		// database should hold.
		r.note(fmt.Sprintf("The reference data could not be read from the database (%v); apps are compared with the dataset instead.", err))
		ref = r.datasetReference()
	}
	r.validator = &scenario.Validator{
		Client:          r.client,
		Ref:             ref,
		CountVacancies:  p.CountVacancies,
		VacanciesTitled: p.VacanciesTitled,
	}
	return nil
}
