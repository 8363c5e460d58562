package stack

import (
	"context"
	"fmt"
	"io"

	"crudbench/bench/cpuset"
	"crudbench/db"
	"crudbench/db/pgtemp"
	"crudbench/db/seed"
)

// dbName is the database the embedded cluster holds the dataset in.
const dbName = "postgres"

// Database is a throwaway PostgreSQL cluster with the default dataset.
type Database struct {
	URL string
	// PID is the postmaster's: the sampler adds its children.
	PID     int
	cluster *pgtemp.Cluster
}

// StartDatabase starts a throwaway cluster from the local server binaries
// (pg_stat_statements preloaded) on cpus (empty: the runner's), migrates
// it and loads the dataset of cfg. The server's output goes to log.
func StartDatabase(ctx context.Context, cfg seed.Config, cpus cpuset.Set, log io.Writer) (*Database, error) {
	c, err := pgtemp.Start(ctx, pgtemp.Options{Log: log, CPUs: cpus})
	if err != nil {
		return nil, err
	}
	d := &Database{URL: c.URL(dbName), PID: c.PID(), cluster: c}
	if err := db.Migrate(ctx, d.URL); err != nil {
		d.Stop()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if _, err := seed.Load(ctx, d.URL, cfg); err != nil {
		d.Stop()
		return nil, fmt.Errorf("seed: %w", err)
	}
	return d, nil
}

// Stop stops the server and removes its folder.
func (d *Database) Stop() error { return d.cluster.Stop() }
