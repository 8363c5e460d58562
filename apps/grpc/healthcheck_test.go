package main

import (
	"io"
	"net"
	"strings"
	"testing"

	"crudbench/apps/internal/apptest"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestHealthcheck runs -healthcheck, the container's health check, against
// a server on loopback: it passes while the database answers, fails naming
// NOT_SERVING while it does not, and fails when nothing listens.
func TestHealthcheck(t *testing.T) {
	t.Parallel()
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppWith(t, dbtest.Store(t, url, db.Options{}), db.DefaultTimeout, &apptest.Buffer{})
	check := func(addr string) error {
		env := map[string]string{"ADDR": addr}
		return run(t.Context(), []string{"-healthcheck"}, func(k string) string { return env[k] }, io.Discard, io.Discard)
	}
	_, port, err := net.SplitHostPort(a.conn.Target())
	if err != nil {
		t.Fatal(err)
	}
	// ADDR as the container sets it: every interface, asked on loopback.
	if err := check(":" + port); err != nil {
		t.Errorf("healthcheck of a serving app: %v", err)
	}

	proxy.Down()
	if err := check(a.conn.Target()); err == nil || !strings.Contains(err.Error(), "NOT_SERVING") {
		t.Errorf("healthcheck with the database away: %v, want NOT_SERVING", err)
	}
	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if err := check(closed); err == nil {
		t.Error("healthcheck with nothing listening passed")
	}
}
