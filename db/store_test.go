package db_test

import (
	"context"
	"testing"
	"time"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

var ctx = context.Background()

// wantCode fails unless err carries code and, when field is set, a message
// for that field.
func wantCode(t *testing.T, err error, code, field string) {
	t.Helper()
	if got := db.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
	if field != "" {
		if _, ok := db.ErrorOf(err).Fields[field]; !ok {
			t.Fatalf("error %v names no field %q", err, field)
		}
	}
}

func validPerson(n int32) db.PersonInput {
	return db.PersonInput{
		EmployeeNo: 900000 + n, FirstName: "Test", LastName: "Person", Email: "test.person@example.org",
		Phone: "+1 555 0100", Department: "Physics", Status: db.PersonActive, HiredOn: db.NewDate(2020, 3, 1),
	}
}

func validVacancy() db.VacancyInput {
	closes := db.NewDate(2026, 2, 1)
	return db.VacancyInput{
		Title: "Research Engineer", Department: "Physics", Location: "Leiden", EmploymentType: db.FullTime,
		SalaryMinCents: 4_000_000, SalaryMaxCents: 5_000_000, Status: db.VacancyOpen,
		OpensOn: db.NewDate(2026, 1, 1), ClosesOn: &closes, Description: "Build instruments.",
	}
}

func TestAuthenticate(t *testing.T) {
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{})
	u, err := s.Authenticate(ctx, "editor", seed.DefaultEditorPassword)
	if err != nil || u.Role != db.RoleEditor || u.Username != "editor" {
		t.Fatalf("editor login: %+v, %v", u, err)
	}
	u, err = s.Authenticate(ctx, "viewer", seed.DefaultViewerPassword)
	if err != nil || u.Role != db.RoleViewer {
		t.Fatalf("viewer login: %+v, %v", u, err)
	}
	_, errPass := s.Authenticate(ctx, "editor", "wrong")
	_, errUser := s.Authenticate(ctx, "nobody", "editor")
	wantCode(t, errPass, db.EUNAUTHORIZED, "")
	wantCode(t, errUser, db.EUNAUTHORIZED, "")
	if pass, user := db.ErrorOf(errPass).Message, db.ErrorOf(errUser).Message; pass != user {
		t.Errorf("messages tell a wrong user from a wrong password: %q vs %q", pass, user)
	}
}

func TestUnavailable(t *testing.T) {
	// Nothing listens on port 1: the Store opens (lazily) and reports the
	// outage as EUNAVAILABLE, never as an internal error.
	s := dbtest.Store(t, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2", db.Options{})
	c, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	wantCode(t, s.Ping(c), db.EUNAVAILABLE, "")
	_, err := s.FindPersonDetail(c, 1)
	wantCode(t, err, db.EUNAVAILABLE, "")
}
