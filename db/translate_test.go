package db_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestConstraintsTranslated breaks each database rule with raw SQL (past the
// Store's validation) and checks the error reaches clients as a field error.
func TestConstraintsTranslated(t *testing.T) {
	url := dbtest.Seeded(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)

	// Every constraint of the schema has a translation.
	rows, err := conn.Query(ctx, `
		SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
		WHERE n.nspname = 'public' AND contype IN ('c', 'u', 'f')
		UNION SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE 'CREATE UNIQUE%' AND indexname NOT LIKE '%pkey'`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, ok := db.ConstraintFields[n]; !ok && n != "goose_db_version_pkey" {
			t.Errorf("constraint %s has no field translation", n)
		}
	}

	for _, tc := range []struct {
		sql, code, field string
	}{
		{`INSERT INTO person (employee_no, first_name, last_name, email, department, hired_on) VALUES (1000, 'a', 'b', 'x@y.z', 'd', '2020-01-01')`, db.ECONFLICT, "employeeNo"},
		{`INSERT INTO person (employee_no, first_name, last_name, email, department, hired_on) VALUES (5, 'a', 'b', 'ADA.LOVELACE.1000@institute.example', 'd', '2020-01-01')`, db.ECONFLICT, "email"},
		{`INSERT INTO person (employee_no, first_name, last_name, email, department, hired_on) VALUES (5, '', 'b', 'x@y.z', 'd', '2020-01-01')`, db.EINVALID, "firstName"},
		{`INSERT INTO person (employee_no, first_name, last_name, email, department, hired_on) VALUES (5, 'a', 'b', 'nomail', 'd', '2020-01-01')`, db.EINVALID, "email"},
		{`INSERT INTO person (employee_no, first_name, last_name, email, department, hired_on, status) VALUES (5, 'a', 'b', 'x@y.z', 'd', '2020-01-01', 'gone')`, db.EINVALID, "status"},
		{`INSERT INTO appointment (person_id, position_title, department, fte, starts_on) VALUES (1, 't', 'd', 1.5, '2020-01-01')`, db.EINVALID, "fte"},
		{`INSERT INTO appointment (person_id, position_title, department, fte, starts_on) VALUES (1, 't', 'd', 0, '2020-01-01')`, db.EINVALID, "fte"},
		{`INSERT INTO appointment (person_id, position_title, department, fte, starts_on, ends_on) VALUES (1, 't', 'd', 1, '2020-01-01', '2019-01-01')`, db.EINVALID, "endsOn"},
		{`INSERT INTO appointment (person_id, position_title, department, fte, starts_on) VALUES (99999, 't', 'd', 1, '2020-01-01')`, db.EINVALID, "personId"},
		{`INSERT INTO stipend (appointment_id, payer_id, amount_cents, currency, starts_on) VALUES (1, 1, 0, 'EUR', '2020-01-01')`, db.EINVALID, "amountCents"},
		{`INSERT INTO stipend (appointment_id, payer_id, amount_cents, currency, starts_on) VALUES (1, 1, 5, 'eu1', '2020-01-01')`, db.EINVALID, "currency"},
		{`INSERT INTO stipend (appointment_id, payer_id, amount_cents, currency, starts_on) VALUES (1, 999, 5, 'EUR', '2020-01-01')`, db.EINVALID, "payerId"},
		{`INSERT INTO funding (appointment_id, payer_id, percent) VALUES (1, 40, 101)`, db.EINVALID, "percent"},
		{`INSERT INTO funding (appointment_id, payer_id, percent) VALUES (1, 40, 99)`, db.EINVALID, "percent"},
		{`INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents, salary_max_cents, opens_on) VALUES ('t', 'd', 'l', 'full_time', 10, 5, '2020-01-01')`, db.EINVALID, "salaryMaxCents"},
		{`INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents, salary_max_cents, opens_on) VALUES ('t', 'd', 'l', 'gig', 1, 5, '2020-01-01')`, db.EINVALID, "employmentType"},
		{`INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents, salary_max_cents, opens_on, status) VALUES ('t', 'd', 'l', 'contract', 1, 5, '2020-01-01', 'x')`, db.EINVALID, "status"},
		{`INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents, salary_max_cents, opens_on, filled_by) VALUES ('t', 'd', 'l', 'contract', 1, 5, '2020-01-01', 99999)`, db.EINVALID, "filledBy"},
		{`INSERT INTO vacancy (title, department, location, employment_type, salary_min_cents, salary_max_cents, opens_on, closes_on) VALUES ('t', 'd', 'l', 'contract', 1, 5, '2020-01-01', '2019-01-01')`, db.EINVALID, "closesOn"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			_, err := conn.Exec(ctx, tc.sql)
			if err == nil {
				t.Fatalf("database accepted %s", tc.sql)
			}
			got := db.ErrorOf(db.Translate(err))
			if got.Code != tc.code || got.Fields[tc.field] == "" {
				t.Errorf("translate(%v) = %v, want %s on field %s", err, got, tc.code, tc.field)
			}
		})
	}
}

// TestMigrationsDownAndUp checks the schema can be removed and recreated.
func TestMigrationsDownAndUp(t *testing.T) {
	url := dbtest.Empty(t)
	sqlDB, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer sqlDB.Close()
	p, err := db.NewMigrator(sqlDB)
	if err != nil {
		t.Fatal(err)
	}
	c := context.Background()
	if _, err := p.DownTo(c, 0); err != nil {
		t.Fatalf("down: %v", err)
	}
	var n int
	if err := sqlDB.QueryRow(`SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'goose_db_version'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after down: %d tables, %v", n, err)
	}
	if _, err := p.Up(c); err != nil {
		t.Fatalf("up again: %v", err)
	}
	if err := db.Migrate(c, url); err != nil {
		t.Fatalf("migrate on an up-to-date database: %v", err)
	}
	if err := sqlDB.QueryRow(`SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'goose_db_version'`).Scan(&n); err != nil || n != 7 {
		t.Fatalf("after up: %d tables, %v; want 7", n, err)
	}
}

// TestStatementTimeoutIsUnavailable holds a row lock from another
// transaction, so that an update waits past the statement timeout: the
// server cancels it (57014), and the Store reports the database unavailable
// (an app's 503), never an internal error.
func TestStatementTimeoutIsUnavailable(t *testing.T) {
	url := dbtest.Seeded(t)
	blocker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(ctx)
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT id FROM vacancy WHERE id = 1 FOR UPDATE`); err != nil {
		t.Fatal(err)
	}

	s := dbtest.Store(t, url, db.Options{StatementTimeout: 100 * time.Millisecond})
	title := "never saved"
	_, err = s.UpdateVacancy(ctx, 1, 1, db.VacancyPatch{Title: &title})
	if e := db.ErrorOf(err); e == nil || e.Code != db.EUNAVAILABLE || e.Message != "the database did not answer in time" {
		t.Errorf("update held up past the statement timeout: %v, want %s saying it did not answer in time", err, db.EUNAVAILABLE)
	}
}
