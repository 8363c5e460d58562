package dbtest_test

import (
	"context"
	"testing"
	"time"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func TestSeededIsIsolated(t *testing.T) {
	ctx := context.Background()
	a := dbtest.Store(t, dbtest.Seeded(t), db.Options{})
	b := dbtest.Store(t, dbtest.Seeded(t), db.Options{})
	if err := a.DeletePerson(ctx, seed.ShowcaseID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.FindPersonByID(ctx, seed.ShowcaseID); err != nil {
		t.Errorf("a delete in one test database is seen in another: %v", err)
	}
	page, err := dbtest.Store(t, dbtest.Empty(t), db.Options{}).FindPersons(ctx, db.PersonFilter{})
	if err != nil || len(page.Persons) != 0 {
		t.Errorf("empty database has %d persons, %v", len(page.Persons), err)
	}
}

func TestProxyOutageAndRecovery(t *testing.T) {
	ctx := context.Background()
	p, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	s := dbtest.Store(t, url, db.Options{})
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	p.Down()
	c, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if _, err := s.FindPersonByID(c, seed.ShowcaseID); db.ErrorCode(err) != db.EUNAVAILABLE {
		t.Fatalf("with the proxy down: %v, want %s", err, db.EUNAVAILABLE)
	}
	if err := p.Up(); err != nil {
		t.Fatal(err)
	}
	waitForStore(t, s)
}

// waitForStore waits up to 10 s for s to read again once the proxy passes
// bytes again.
func waitForStore(t *testing.T, s *db.Store) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := s.FindPersonByID(context.Background(), seed.ShowcaseID)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("store did not recover after the proxy came back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestProxyStallAndResume: a stalled proxy answers nothing, so a call waits
// for exactly its own deadline, on an open connection and on a new one, and
// reports the database unavailable; after Resume the same store works again.
func TestProxyStallAndResume(t *testing.T) {
	ctx := context.Background()
	p, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	s := dbtest.Store(t, url, db.Options{MaxConns: 2})
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	p.Stall()
	const wait = 300 * time.Millisecond
	for _, tc := range []struct {
		name  string
		store *db.Store
	}{
		{"open connection", s},
		{"new connection", dbtest.Store(t, url, db.Options{})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, cancel := context.WithTimeout(ctx, wait)
			defer cancel()
			start := time.Now()
			_, err := tc.store.FindPersonByID(c, seed.ShowcaseID)
			took := time.Since(start)
			if e := db.ErrorOf(err); e == nil || e.Code != db.EUNAVAILABLE || e.Message != "the database did not answer in time" {
				t.Errorf("during the stall: %v, want %s saying it did not answer in time", err, db.EUNAVAILABLE)
			}
			// It cannot return sooner unless the stall let something
			// through; the upper bound only keeps a hang from passing.
			if took < wait || took > wait+5*time.Second {
				t.Errorf("the call returned after %s, want its deadline %s", took, wait)
			}
		})
	}
	p.Resume()
	waitForStore(t, s)
}
