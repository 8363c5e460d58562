package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
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

// TestTemp runs "dbctl temp" as a user would: it prints a URL that reaches a
// seeded database, and removes everything when cancelled.
func TestTemp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"temp"}, func(k string) string {
			if k == "SEED_PERSONS" {
				return "5"
			}
			return ""
		}, w, io.Discard)
		w.Close()
	}()

	var url string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if v, ok := strings.CutPrefix(line, "export DATABASE_URL='"); ok {
			url = strings.TrimSuffix(v, "'")
			break
		}
	}
	go io.Copy(io.Discard, out)
	if url == "" {
		t.Fatalf("dbctl temp printed no DATABASE_URL (run: %v)", <-done)
	}
	s, err := db.Open(ctx, url, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.FindPersons(ctx, db.PersonFilter{Limit: 1000})
	s.Close()
	if err != nil || len(page.Persons) != 5 {
		t.Fatalf("through the printed URL: %d persons, %v; want 5", len(page.Persons), err)
	}
	dir, _, _ := strings.Cut(strings.SplitN(url, "host=", 2)[1], "&")

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("dbctl temp after Ctrl-C: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cluster folder %s still there after stop (%v)", dir, err)
	}
}
