package db_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/db"
	"crudbench/db/dbtest"
)

func TestVacancies(t *testing.T) {
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{})

	open, err := s.FindVacancies(ctx, db.VacancyFilter{Status: db.VacancyOpen, Limit: db.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(open.Vacancies); n < 50 || n > 70 {
		t.Errorf("open vacancies = %d, want about half of 120", n)
	}
	for _, v := range open.Vacancies {
		if v.Status != db.VacancyOpen {
			t.Errorf("vacancy %d has status %s in the open list", v.ID, v.Status)
		}
	}
	first, err := s.FindVacancies(ctx, db.VacancyFilter{Limit: 100})
	if err != nil || len(first.Vacancies) != 100 || first.NextCursor == "" {
		t.Fatalf("first page: %d, cursor %q, %v", len(first.Vacancies), first.NextCursor, err)
	}
	rest, err := s.FindVacancies(ctx, db.VacancyFilter{Limit: 100, After: first.NextCursor})
	if err != nil || len(rest.Vacancies) != 20 || rest.NextCursor != "" {
		t.Fatalf("second page: %d, cursor %q, %v", len(rest.Vacancies), rest.NextCursor, err)
	}
	_, err = s.FindVacancies(ctx, db.VacancyFilter{Status: "archived"})
	wantCode(t, err, db.EINVALID, "status")

	v, err := s.CreateVacancy(ctx, validVacancy())
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.FindVacancyByID(ctx, v.ID)
	if err != nil || !cmp.Equal(v, got) {
		t.Fatalf("read back %+v, %v; want %+v", got, err, v)
	}

	for _, tc := range []struct {
		name  string
		edit  func(*db.VacancyInput)
		field string
	}{
		{"salary max under min", func(in *db.VacancyInput) { in.SalaryMaxCents = in.SalaryMinCents - 1 }, "salaryMaxCents"},
		{"negative salary", func(in *db.VacancyInput) { in.SalaryMinCents = -1 }, "salaryMinCents"},
		{"unknown status", func(in *db.VacancyInput) { in.Status = "archived" }, "status"},
		{"unknown employment type", func(in *db.VacancyInput) { in.EmploymentType = "gig" }, "employmentType"},
		{"closes before opening", func(in *db.VacancyInput) { c := db.NewDate(2025, 1, 1); in.ClosesOn = &c }, "closesOn"},
		{"filled by nobody", func(in *db.VacancyInput) { id := int64(999999); in.FilledBy = &id }, "filledBy"},
		{"empty title", func(in *db.VacancyInput) { in.Title = "" }, "title"},
		{"huge description", func(in *db.VacancyInput) { in.Description = strings.Repeat("x", 10001) }, "description"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := validVacancy()
			tc.edit(&in)
			_, err := s.CreateVacancy(ctx, in)
			wantCode(t, err, db.EINVALID, tc.field)
			_, err = s.UpdateVacancy(ctx, v.ID, v.Version, patchOf(in))
			wantCode(t, err, db.EINVALID, tc.field)
		})
	}
	got, err = s.FindVacancyByID(ctx, v.ID)
	if err != nil || !cmp.Equal(v, got) {
		t.Errorf("rejected updates changed the vacancy: %+v, %v", got, err)
	}

	title := "Senior Research Engineer"
	u, err := s.UpdateVacancy(ctx, v.ID, v.Version, db.VacancyPatch{Title: &title, ClearClosesOn: true})
	if err != nil || u.Title != title || u.ClosesOn != nil || u.Version != 2 {
		t.Fatalf("update: %+v, %v", u, err)
	}
	_, err = s.UpdateVacancy(ctx, v.ID, v.Version, db.VacancyPatch{Title: &title})
	wantCode(t, err, db.ECONFLICT, "version")

	if err := s.DeleteVacancy(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.DeleteVacancy(ctx, v.ID), db.ENOTFOUND, "")
	_, err = s.FindVacancyByID(ctx, v.ID)
	wantCode(t, err, db.ENOTFOUND, "")
}

// patchOf sets every field of a patch from in (a full replacement).
func patchOf(in db.VacancyInput) db.VacancyPatch {
	return db.VacancyPatch{
		Title: &in.Title, Department: &in.Department, Location: &in.Location,
		EmploymentType: &in.EmploymentType, SalaryMinCents: &in.SalaryMinCents,
		SalaryMaxCents: &in.SalaryMaxCents, Status: &in.Status, OpensOn: &in.OpensOn,
		ClosesOn: in.ClosesOn, Description: &in.Description, FilledBy: in.FilledBy,
	}
}

func TestConcurrentUpdatesOneWins(t *testing.T) {
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{})
	v, err := s.FindVacancyByID(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			title := strings.Repeat("w", i+1)
			_, errs[i] = s.UpdateVacancy(ctx, v.ID, v.Version, db.VacancyPatch{Title: &title})
		})
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch db.ErrorCode(err) {
		case "":
			wins++
		case db.ECONFLICT:
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if wins != 1 {
		t.Errorf("%d updates with the same version won, want exactly 1", wins)
	}
	got, err := s.FindVacancyByID(ctx, v.ID)
	if err != nil || got.Version != v.Version+1 {
		t.Errorf("version after race = %d, %v; want %d", got.Version, err, v.Version+1)
	}
}
