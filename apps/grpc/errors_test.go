package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/apps/internal/auth"
	"crudbench/db"
)

// errorCase is one call and the status it should get.
type errorCase struct {
	name   string
	token  string
	call   func(ctx context.Context) error
	code   codes.Code
	fields []string // the fields a BadRequest detail names, in order
}

// run makes the case's call and checks its code and field violations.
func (c errorCase) run(t *testing.T) {
	t.Run(c.name, func(t *testing.T) {
		s := wantCode(t, c.name, c.call(as(t, c.token)), c.code)
		if got := violations(s); !slices.Equal(got, c.fields) {
			t.Errorf("field violations %q, want %q", got, c.fields)
		}
	})
}

// TestInvalidArgument is bad input: INVALID_ARGUMENT with a BadRequest
// naming each wrong field by its path in the request.
func TestInvalidArgument(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	title := "x"
	for _, c := range []errorCase{
		{"page size too large", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.ListPersons(ctx, &crudbenchv1.ListPersonsRequest{PageSize: 1001})
			return err
		}, codes.InvalidArgument, []string{"page_size"}},
		{"bad page token", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.ListVacancies(ctx, &crudbenchv1.ListVacanciesRequest{PageToken: "nope"})
			return err
		}, codes.InvalidArgument, []string{"page_token"}},
		{"unknown mask path", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.ListPersons(ctx, &crudbenchv1.ListPersonsRequest{ReadMask: maskOf("salary")})
			return err
		}, codes.InvalidArgument, []string{"read_mask"}},
		{"invalid vacancy", a.editor, func(ctx context.Context) error {
			_, err := a.staff.CreateVacancy(ctx, &crudbenchv1.CreateVacancyRequest{Vacancy: &crudbenchv1.Vacancy{OpensOn: "2026-01-01"}})
			return err
		}, codes.InvalidArgument, []string{"vacancy.department", "vacancy.employment_type", "vacancy.location", "vacancy.title"}},
		{"bad date", a.editor, func(ctx context.Context) error {
			_, err := a.staff.CreateVacancy(ctx, &crudbenchv1.CreateVacancyRequest{Vacancy: &crudbenchv1.Vacancy{OpensOn: "1 May"}})
			return err
		}, codes.InvalidArgument, []string{"vacancy.opens_on"}},
		{"missing version", a.editor, func(ctx context.Context) error {
			_, err := a.staff.UpdateVacancy(ctx, &crudbenchv1.UpdateVacancyRequest{Id: 1, Title: &title})
			return err
		}, codes.InvalidArgument, []string{"version"}},
	} {
		c.run(t)
	}
}

// TestErrorCodes is the rest of the status mapping.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	expired := expiredToken(t)
	forged := issue(t, auth.NewTokens([]byte("another-secret-0123456789abcdef"), time.Hour), 2, "editor", auth.RoleEditor)
	title := "x"
	for _, c := range []errorCase{
		{"missing person", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.GetPerson(ctx, &crudbenchv1.GetPersonRequest{Id: 999999})
			return err
		}, codes.NotFound, nil},
		{"stale version", a.editor, func(ctx context.Context) error {
			_, err := a.staff.UpdateVacancy(ctx, &crudbenchv1.UpdateVacancyRequest{Id: 1, Version: 99, Title: &title})
			return err
		}, codes.Aborted, nil},
		{"wrong password", "", func(ctx context.Context) error {
			_, err := a.staff.Login(ctx, &crudbenchv1.LoginRequest{Username: "editor", Password: "wrong"})
			return err
		}, codes.Unauthenticated, nil},
		{"no token", "", getPerson(a), codes.Unauthenticated, nil},
		{"expired token", expired, getPerson(a), codes.Unauthenticated, nil},
		{"forged token", forged, getPerson(a), codes.Unauthenticated, nil},
		{"viewer writes", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.DeleteVacancy(ctx, &crudbenchv1.DeleteVacancyRequest{Id: 1})
			return err
		}, codes.PermissionDenied, nil},
		{"oversize message", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.ListPersons(ctx, &crudbenchv1.ListPersonsRequest{Query: strings.Repeat("x", maxMessageBytes+1)})
			return err
		}, codes.ResourceExhausted, nil},
	} {
		c.run(t)
	}
}

// TestUnknownEnums sends enum numbers the proto does not declare, which
// proto3 keeps as numbers: each is INVALID_ARGUMENT naming its field, and
// nothing is stored or changed.
func TestUnknownEnums(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	draftsBefore := countDrafts(t, a)
	before, err := a.store.FindVacancyByID(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	create := func(status crudbenchv1.VacancyStatus, typ crudbenchv1.EmploymentType) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			_, err := a.staff.CreateVacancy(ctx, &crudbenchv1.CreateVacancyRequest{Vacancy: &crudbenchv1.Vacancy{
				Title: "Unknown enum", Department: "Physics", Location: "Oxford", EmploymentType: typ,
				SalaryMinCents: 3_000_000, SalaryMaxCents: 4_000_000, Status: status, OpensOn: "2026-01-01",
			}})
			return err
		}
	}
	update := func(req *crudbenchv1.UpdateVacancyRequest) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			req.Id, req.Version = before.ID, before.Version
			_, err := a.staff.UpdateVacancy(ctx, req)
			return err
		}
	}
	fullTime, draft := crudbenchv1.EmploymentType_EMPLOYMENT_TYPE_FULL_TIME, crudbenchv1.VacancyStatus_VACANCY_STATUS_DRAFT
	unknownStatus, unknownType := crudbenchv1.VacancyStatus(99), crudbenchv1.EmploymentType(99)
	for _, c := range []errorCase{
		{"create with status 99", a.editor, create(99, fullTime), codes.InvalidArgument, []string{"vacancy.status"}},
		{"create with status -1", a.editor, create(-1, fullTime), codes.InvalidArgument, []string{"vacancy.status"}},
		{"create with employment type 99", a.editor, create(draft, 99), codes.InvalidArgument, []string{"vacancy.employment_type"}},
		{"create with both unknown", a.editor, create(99, 99), codes.InvalidArgument, []string{"vacancy.employment_type", "vacancy.status"}},
		{"update to status 99", a.editor, update(&crudbenchv1.UpdateVacancyRequest{Status: &unknownStatus}), codes.InvalidArgument, []string{"status"}},
		{"update to employment type 99", a.editor, update(&crudbenchv1.UpdateVacancyRequest{EmploymentType: &unknownType}), codes.InvalidArgument, []string{"employment_type"}},
		{"list of status 99", a.viewer, func(ctx context.Context) error {
			_, err := a.staff.ListVacancies(ctx, &crudbenchv1.ListVacanciesRequest{Status: 99})
			return err
		}, codes.InvalidArgument, []string{"status"}},
	} {
		c.run(t)
	}
	if n := countDrafts(t, a); n != draftsBefore {
		t.Errorf("%d drafts after the calls, %d before", n, draftsBefore)
	}
	if after, err := a.store.FindVacancyByID(t.Context(), 1); err != nil || after.Version != before.Version || after.Status != before.Status {
		t.Errorf("vacancy 1 changed: %+v, was %+v (%v)", after, before, err)
	}
}

// countDrafts counts the draft vacancies in the Store.
func countDrafts(t *testing.T, a *testApp) int {
	t.Helper()
	page, err := a.store.FindVacancies(t.Context(), db.VacancyFilter{Status: db.VacancyDraft, Limit: db.MaxLimit})
	if err != nil || page.NextCursor != "" {
		t.Fatalf("drafts: %v (more than a page: %v)", err, page.NextCursor != "")
	}
	return len(page.Vacancies)
}

func getPerson(a *testApp) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		_, err := a.staff.GetPerson(ctx, &crudbenchv1.GetPersonRequest{Id: 1})
		return err
	}
}

// expiredToken is a token signed with the test secret in the claims
// package auth issues, which expired an hour ago.
func expiredToken(t *testing.T) string {
	t.Helper()
	past := time.Now().Add(-2 * time.Hour)
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": "crudbench", "sub": "2", "name": "editor", "role": "editor",
		"iat": past.Unix(), "exp": past.Add(time.Hour).Unix(),
	}).SignedString(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func maskOf(paths ...string) *fieldmaskpb.FieldMask { return &fieldmaskpb.FieldMask{Paths: paths} }
