package db

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver goose runs on
	"github.com/pressly/goose/v3"

	"crudbench/db/migrations"
)

// NewMigrator returns a goose provider over the embedded migrations for an
// open database. The caller closes sqlDB.
func NewMigrator(sqlDB *sql.DB) (*goose.Provider, error) {
	return goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS)
}

// Migrate brings the database at url up to the newest schema version.
func Migrate(ctx context.Context, url string) error {
	sqlDB, err := sql.Open("pgx", url)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer sqlDB.Close()
	p, err := NewMigrator(sqlDB)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
