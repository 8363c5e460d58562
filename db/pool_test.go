package db_test

import (
	"context"
	"testing"

	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestPoolStats: a fresh pool has opened nothing; a query opens a
// connection, hands it out once and returns it idle.
func TestPoolStats(t *testing.T) {
	store := dbtest.Store(t, dbtest.Empty(t), db.Options{MaxConns: 3})
	if got := store.PoolStats(); got.TotalConns != 0 || got.AcquireCount != 0 || got.MaxConns != 3 {
		t.Errorf("before any query: %+v, want no connections and MaxConns 3", got)
	}
	if err := store.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := store.PoolStats()
	if got.TotalConns != 1 || got.IdleConns != 1 || got.AcquiredConns != 0 || got.AcquireCount != 1 {
		t.Errorf("after one ping: %+v, want one idle connection acquired once", got)
	}
	if got.AcquireDuration <= 0 {
		t.Errorf("after one ping: AcquireDuration %s, want the time the first connection took to open", got.AcquireDuration)
	}
}
