package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/apps/internal/apptest"
	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestDatabaseOutage cuts the connection to the database: the service's
// health answers NOT_SERVING (the server's, "", stays SERVING: it is
// liveness) and data calls UNAVAILABLE with RetryInfo, and once the
// database is back the same server answers again without a restart.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	a := newAppWith(t, dbtest.Store(t, url, db.Options{}), db.DefaultTimeout, &apptest.Buffer{})
	health := healthpb.NewHealthClient(a.conn)
	wantHealth(t, health, staffService, healthpb.HealthCheckResponse_SERVING)

	proxy.Down()
	wantHealth(t, health, staffService, healthpb.HealthCheckResponse_NOT_SERVING)
	wantHealth(t, health, "", healthpb.HealthCheckResponse_SERVING)
	_, err := a.staff.GetPerson(as(t, a.viewer), &crudbenchv1.GetPersonRequest{Id: 1})
	if s := wantCode(t, "GetPerson during the outage", err, codes.Unavailable); !retryInfo(s) {
		t.Error("UNAVAILABLE without RetryInfo")
	}
	_, err = a.staff.Login(t.Context(), &crudbenchv1.LoginRequest{Username: "editor", Password: "editor"})
	wantCode(t, "Login during the outage", err, codes.Unavailable)

	if err := proxy.Up(); err != nil {
		t.Fatal(err)
	}
	a.waitForPerson(t)
	wantHealth(t, health, staffService, healthpb.HealthCheckResponse_SERVING)
}

func wantHealth(t *testing.T, health healthpb.HealthClient, service string, want healthpb.HealthCheckResponse_ServingStatus) {
	t.Helper()
	res, err := health.Check(t.Context(), &healthpb.HealthCheckRequest{Service: service})
	if err != nil {
		t.Fatal(err)
	}
	if res.GetStatus() != want {
		t.Errorf("health of %q: %s, want %s", service, res.GetStatus(), want)
	}
}

// TestDeadline stalls the database, as a paused server does: a call whose
// client deadline is the shorter gets DEADLINE_EXCEEDED at it, a call
// whose server deadline (REQUEST_TIMEOUT) is the shorter gets UNAVAILABLE
// with RetryInfo at that one, and the log names the cause.
func TestDeadline(t *testing.T) {
	t.Parallel()
	proxy, url := dbtest.NewProxy(t, dbtest.Seeded(t))
	var logs apptest.Buffer
	a := newAppWith(t, dbtest.Store(t, url, db.Options{MaxConns: 2}), apptest.StallTimeout, &logs)
	a.waitForPerson(t)
	proxy.Stall()

	t.Run("server deadline", func(t *testing.T) {
		start := time.Now()
		_, err := a.staff.GetPerson(as(t, a.viewer), &crudbenchv1.GetPersonRequest{Id: 1})
		apptest.WantDeadline(t, "GetPerson", time.Since(start))
		if s := wantCode(t, "GetPerson", err, codes.Unavailable); !retryInfo(s) {
			t.Error("UNAVAILABLE without RetryInfo")
		}
	})
	t.Run("client deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(as(t, a.viewer), apptest.StallTimeout/5)
		defer cancel()
		start := time.Now()
		_, err := a.staff.ListVacancies(ctx, &crudbenchv1.ListVacanciesRequest{})
		wantCode(t, "ListVacancies", err, codes.DeadlineExceeded)
		if took := time.Since(start); took >= apptest.StallTimeout+apptest.StallMargin {
			t.Errorf("answered after %s", took)
		}
	})
	if l := logs.String(); !strings.Contains(l, `"msg":"database unavailable"`) {
		t.Errorf("the log does not name the outage:\n%s", l)
	}
	proxy.Resume()
	a.waitForPerson(t)
}
