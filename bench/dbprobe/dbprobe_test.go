package dbprobe_test

import (
	"context"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"crudbench/bench/dbprobe"
	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// createExtension creates pg_stat_statements in the test database as the
// superuser: the throwaway cluster's "postgres" (trust authentication), or
// TEST_DATABASE_URL's user.
func createExtension(t *testing.T, dbURL string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User("postgres")
	if admin := os.Getenv("TEST_DATABASE_URL"); admin != "" {
		au, err := url.Parse(admin)
		if err != nil {
			t.Fatal(err)
		}
		u.User = au.User
	}
	conn, err := pgx.Connect(context.Background(), u.String())
	if err != nil {
		t.Fatalf("connect as the superuser to create pg_stat_statements: %v", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		t.Fatalf("create pg_stat_statements (the server must preload it): %v", err)
	}
}

func TestProbe(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.Seeded(t)
	p, err := dbprobe.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	if err := p.EnableStatements(ctx); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("EnableStatements as the tests' unprivileged user: %v, want permission denied", err)
	}
	createExtension(t, dbURL)
	if err := p.EnableStatements(ctx); err != nil {
		t.Fatalf("EnableStatements once the extension exists: %v", err)
	}
	t.Run("statements", func(t *testing.T) {
		before, err := p.Statements(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := p.Statements(ctx); again != before {
			t.Errorf("the probe counted its own query: %d then %d", before, again)
		}
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		for range 5 {
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM person WHERE id > $1", 3).Scan(&n); err != nil {
				t.Fatal(err)
			}
		}
		after, err := p.Statements(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if after-before != 5 {
			t.Errorf("statements delta %d, want the 5 queries sent", after-before)
		}
	})

	t.Run("dataset", func(t *testing.T) {
		has, err := p.HasSchema(ctx)
		if err != nil || !has {
			t.Fatalf("HasSchema = %v, %v", has, err)
		}
		counts, err := p.Dataset(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if counts["person"] != seed.DefaultPersons || counts["app_user"] != 2 || counts["vacancy"] == 0 || len(counts) != len(dbprobe.Tables) {
			t.Errorf("dataset %v", counts)
		}
		v, err := p.ServerVersion(ctx)
		if err != nil || v == "" {
			t.Errorf("ServerVersion = %q, %v", v, err)
		}
	})

	t.Run("vacancies", func(t *testing.T) {
		store := dbtest.Store(t, dbURL, db.Options{})
		before, err := p.CountVacancies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, title := range []string{"bench 100% run #1", "bench 100% run #2", "bench 100x run #3"} {
			v, err := store.CreateVacancy(ctx, db.VacancyInput{Title: title, Department: "D", Location: "L",
				EmploymentType: db.FullTime, Status: db.VacancyDraft, OpensOn: db.NewDate(2026, 1, 1)})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, v.ID)
		}
		after, _ := p.CountVacancies(ctx)
		if after != before+3 {
			t.Errorf("CountVacancies %d after 3 creates on %d", after, before)
		}
		got, err := p.VacanciesTitled(ctx, "bench 100% run ")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0] != ids[0] || got[1] != ids[1] {
			t.Errorf("VacanciesTitled = %v, want %v (the %% taken literally)", got, ids[:2])
		}
	})

	t.Run("server pid", func(t *testing.T) {
		pid, err := p.ServerPID(ctx)
		if err != nil {
			// A TEST_DATABASE_URL on another host is not visible: say so.
			if !strings.Contains(err.Error(), "not visible") {
				t.Errorf("ServerPID: %v", err)
			}
			return
		}
		comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "postgres" {
			t.Errorf("ServerPID = %d, a %q process", pid, comm)
		}
	})
}
