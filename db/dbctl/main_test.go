package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"crudbench/db"
	"crudbench/db/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func TestSeedResetIdempotent(t *testing.T) {
	ctx := context.Background()
	url := dbtest.Empty(t)
	env := func(k string) string {
		if k == "SEED_PERSONS" {
			return "20"
		}
		return ""
	}
	var out bytes.Buffer
	for i, step := range []struct{ cmd, want string }{
		{"seed", "seeded in"},
		{"seed", "already seeded"},
		{"reset", "emptied every table"},
		{"migrate", "migrated"},
	} {
		out.Reset()
		if err := run(ctx, []string{"-database-url", url, step.cmd}, env, &out, &out); err != nil {
			t.Fatalf("step %d %s: %v", i, step.cmd, err)
		}
		if !strings.Contains(out.String(), step.want) {
			t.Errorf("step %d %s printed %q, want %q", i, step.cmd, out.String(), step.want)
		}
	}
	page, err := dbtest.Store(t, url, db.Options{}).FindPersons(ctx, db.PersonFilter{Limit: 1000})
	if err != nil || len(page.Persons) != 20 {
		t.Errorf("after reset: %d persons, %v; want 20", len(page.Persons), err)
	}
}

func TestUsageErrors(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"drop"}, {"seed", "extra"}} {
		if err := run(context.Background(), append([]string{"-database-url", "postgres://x@localhost/none"}, args...), func(string) string { return "" }, &out, &out); err == nil {
			t.Errorf("dbctl %v: no error", args)
		}
	}
	if err := run(context.Background(), []string{"seed"}, func(string) string { return "" }, &out, &out); err == nil || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Errorf("no URL: %v", err)
	}
}
