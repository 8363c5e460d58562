package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"crudbench/apps/grpc/gen/crudbenchv1"
	"crudbench/db"
)

// TestGetPerson compares the showcase person, with every nested row, with
// what the Store reads: ids, names, enums, dates, instants and money.
func TestGetPerson(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	got, err := a.staff.GetPerson(as(t, a.viewer), &crudbenchv1.GetPersonRequest{Id: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, err := a.store.FindPersonDetail(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	p := got.GetPerson()
	if p.GetId() != 1 || p.GetFirstName() != "Ada" || p.GetLastName() != "Lovelace" || p.GetEmployeeNo() != 1000 {
		t.Errorf("person: %v", p)
	}
	if p.GetStatus().String() != "PERSON_STATUS_"+upper(string(want.Status)) || p.GetHiredOn() != want.HiredOn.String() ||
		!p.GetCreatedAt().AsTime().Equal(want.CreatedAt) || !p.GetUpdatedAt().AsTime().Equal(want.UpdatedAt) || p.GetVersion() != want.Version {
		t.Errorf("person %v, store %+v", p, want.Person)
	}
	if len(got.GetAppointments()) != 12 {
		t.Fatalf("%d appointments, want 12", len(got.GetAppointments()))
	}
	for i, ga := range got.GetAppointments() {
		wa := want.Appointments[i]
		if ga.GetId() != wa.ID || ga.GetPositionTitle() != wa.PositionTitle || ga.GetFte() != wa.FTE || ga.GetStartsOn() != wa.StartsOn.String() ||
			(ga.EndsOn == nil) != (wa.EndsOn == nil) {
			t.Errorf("appointment %d: %v, store %+v", i, ga, wa)
		}
		if len(ga.GetStipends()) != 3 || len(ga.GetFundings()) != 2 {
			t.Fatalf("appointment %d: %d stipends, %d fundings", i, len(ga.GetStipends()), len(ga.GetFundings()))
		}
		for j, gs := range ga.GetStipends() {
			ws := wa.Stipends[j]
			if gs.GetId() != ws.ID || gs.GetAmountCents() != ws.AmountCents || gs.GetPayer().GetCode() != ws.Payer.Code ||
				gs.GetPayer().GetKind().String() != "PAYER_KIND_"+upper(string(ws.Payer.Kind)) {
				t.Errorf("stipend %d.%d: %v, store %+v", i, j, gs, ws)
			}
		}
		for j, gf := range ga.GetFundings() {
			wf := wa.Fundings[j]
			if gf.GetPercent() != wf.Percent || gf.GetPayer().GetId() != wf.Payer.ID {
				t.Errorf("funding %d.%d: %v, store %+v", i, j, gf, wf)
			}
		}
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// TestLists compares the read-many and read-small pages with the Store's,
// id by id in the Store's order, and pages through with the token.
func TestLists(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	ctx := as(t, a.viewer)

	persons, err := a.staff.ListPersons(ctx, &crudbenchv1.ListPersonsRequest{PageSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	wantPersons, err := a.store.FindPersons(t.Context(), db.PersonFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(personIDs(wantPersons.Persons), ids(persons.GetPersons(), (*crudbenchv1.Person).GetId)); diff != "" {
		t.Errorf("person ids (-store +grpc):\n%s", diff)
	}

	open, err := a.staff.ListVacancies(ctx, &crudbenchv1.ListVacanciesRequest{PageSize: 100, Status: crudbenchv1.VacancyStatus_VACANCY_STATUS_OPEN})
	if err != nil {
		t.Fatal(err)
	}
	wantOpen, err := a.store.FindVacancies(t.Context(), db.VacancyFilter{Status: db.VacancyOpen, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var wantIDs []int64
	for _, v := range wantOpen.Vacancies {
		wantIDs = append(wantIDs, v.ID)
	}
	if diff := cmp.Diff(wantIDs, ids(open.GetVacancies(), (*crudbenchv1.Vacancy).GetId)); diff != "" {
		t.Errorf("open vacancy ids (-store +grpc):\n%s", diff)
	}

	first, err := a.staff.ListPersons(ctx, &crudbenchv1.ListPersonsRequest{PageSize: 2})
	if err != nil || first.GetNextPageToken() == "" {
		t.Fatalf("first page: %v, token %q", err, first.GetNextPageToken())
	}
	second, err := a.staff.ListPersons(ctx, &crudbenchv1.ListPersonsRequest{PageSize: 2, PageToken: first.GetNextPageToken()})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(personIDs(wantPersons.Persons)[2:4], ids(second.GetPersons(), (*crudbenchv1.Person).GetId)); diff != "" {
		t.Errorf("second page (-store +grpc):\n%s", diff)
	}
}

func personIDs(ps []db.Person) []int64 {
	var out []int64
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func ids[M any](ms []M, id func(M) int64) []int64 {
	var out []int64
	for _, m := range ms {
		out = append(out, id(m))
	}
	return out
}

// TestReadMask asks for ids and names only: every other field is unset.
func TestReadMask(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	res, err := a.staff.ListPersons(as(t, a.viewer), &crudbenchv1.ListPersonsRequest{
		PageSize: 3, ReadMask: &fieldmaskpb.FieldMask{Paths: []string{"id", "first_name", "last_name"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.GetPersons() {
		if p.GetId() == 0 || p.GetLastName() == "" || p.GetFirstName() == "" {
			t.Errorf("masked person lacks a field asked for: %v", p)
		}
		if p.GetEmail() != "" || p.GetCreatedAt() != nil || p.GetStatus() != 0 || p.GetVersion() != 0 {
			t.Errorf("masked person has a field not asked for: %v", p)
		}
	}
}

// TestVacancyWrites creates, updates (and fails a stale update of),
// deletes and reads back a vacancy, as the write scenario does.
func TestVacancyWrites(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	ctx := as(t, a.editor)
	closes := "2026-03-31"
	v, err := a.staff.CreateVacancy(ctx, &crudbenchv1.CreateVacancyRequest{Vacancy: &crudbenchv1.Vacancy{
		Title: "Research assistant", Department: "Physics", Location: "Oxford",
		EmploymentType: crudbenchv1.EmploymentType_EMPLOYMENT_TYPE_FULL_TIME,
		SalaryMinCents: 3_000_000, SalaryMaxCents: 4_000_000,
		Status:  crudbenchv1.VacancyStatus_VACANCY_STATUS_DRAFT,
		OpensOn: "2026-01-01", ClosesOn: &closes, Description: "Lasers.",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if v.GetId() == 0 || v.GetVersion() != 1 || v.GetClosesOn() != closes || v.FilledBy != nil {
		t.Errorf("created: %v", v)
	}
	title := "Senior research assistant"
	upd, err := a.staff.UpdateVacancy(ctx, &crudbenchv1.UpdateVacancyRequest{Id: v.GetId(), Version: 1, Title: &title, ClearClosesOn: true})
	if err != nil {
		t.Fatal(err)
	}
	if upd.GetTitle() != title || upd.GetVersion() != 2 || upd.ClosesOn != nil || upd.GetDescription() != "Lasers." {
		t.Errorf("updated: %v", upd)
	}
	_, err = a.staff.UpdateVacancy(ctx, &crudbenchv1.UpdateVacancyRequest{Id: v.GetId(), Version: 1, Title: &title})
	wantCode(t, "stale update", err, codes.Aborted)

	if _, err := a.staff.DeleteVacancy(ctx, &crudbenchv1.DeleteVacancyRequest{Id: v.GetId()}); err != nil {
		t.Fatal(err)
	}
	_, err = a.staff.GetVacancy(ctx, &crudbenchv1.GetVacancyRequest{Id: v.GetId()})
	wantCode(t, "read back after delete", err, codes.NotFound)
}

// TestAccessCoversStaff checks that staffAccess names every Staff method,
// since a method it lacks would be open to anyone.
func TestAccessCoversStaff(t *testing.T) {
	for _, m := range crudbenchv1.Staff_ServiceDesc.Methods {
		full := "/" + crudbenchv1.Staff_ServiceDesc.ServiceName + "/" + m.MethodName
		if _, ok := staffAccess[full]; !ok {
			t.Errorf("staffAccess lacks %s", full)
		}
	}
	if staffAccess[crudbenchv1.Staff_Login_FullMethodName] != open {
		t.Error("Login is not open")
	}
}
