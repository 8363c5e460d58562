package db_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestFindPersonDetailShowcase(t *testing.T) {
	var statements atomic.Int64
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{OnQuery: func(string) { statements.Add(1) }})

	statements.Store(0)
	d, err := s.FindPersonDetail(ctx, seed.ShowcaseID)
	if err != nil {
		t.Fatal(err)
	}
	if n := statements.Load(); n > 4 {
		t.Errorf("nested detail took %d statements, want at most 4", n)
	}
	if d.FirstName != seed.ShowcaseFirstName || d.LastName != seed.ShowcaseLastName || d.EmployeeNo != seed.ShowcaseEmployeeNo {
		t.Errorf("showcase person = %s %s #%d", d.FirstName, d.LastName, d.EmployeeNo)
	}
	if len(d.Appointments) != seed.ShowcaseAppointments {
		t.Fatalf("appointments = %d, want %d", len(d.Appointments), seed.ShowcaseAppointments)
	}
	for _, a := range d.Appointments {
		if len(a.Stipends) != seed.ShowcaseStipends || len(a.Fundings) != seed.ShowcaseFundings {
			t.Errorf("appointment %d: %d stipends, %d fundings", a.ID, len(a.Stipends), len(a.Fundings))
		}
		for _, st := range a.Stipends {
			if st.Payer.Name == "" || st.Payer.Code == "" || st.AppointmentID != a.ID {
				t.Errorf("stipend %d: payer %+v, appointment %d", st.ID, st.Payer, st.AppointmentID)
			}
		}
		for _, f := range a.Fundings {
			if f.Payer.Name == "" || f.Percent <= 0 {
				t.Errorf("funding of %d: %+v", a.ID, f)
			}
		}
	}

	// A person with no appointments costs two statements and gets empty lists.
	p, err := s.CreatePerson(ctx, validPerson(1))
	if err != nil {
		t.Fatal(err)
	}
	statements.Store(0)
	d, err = s.FindPersonDetail(ctx, p.ID)
	if err != nil || len(d.Appointments) != 0 || d.Appointments == nil {
		t.Fatalf("detail of a person without appointments: %+v, %v", d.Appointments, err)
	}
	if n := statements.Load(); n != 2 {
		t.Errorf("empty detail took %d statements, want 2", n)
	}

	_, err = s.FindPersonDetail(ctx, 999999)
	wantCode(t, err, db.ENOTFOUND, "")
}

func TestFindPersonsPaging(t *testing.T) {
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{})

	all, err := s.FindPersons(ctx, db.PersonFilter{Limit: db.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Persons) != seed.DefaultPersons || all.NextCursor != "" {
		t.Fatalf("limit 1000: %d persons, cursor %q; want all %d and no cursor", len(all.Persons), all.NextCursor, seed.DefaultPersons)
	}

	// Walking small pages visits every person once, in the same order.
	var walked []int64
	after := ""
	for {
		page, err := s.FindPersons(ctx, db.PersonFilter{Limit: 37, After: after})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Persons {
			walked = append(walked, p.ID)
		}
		if page.NextCursor == "" {
			break
		}
		after = page.NextCursor
	}
	var want []int64
	for _, p := range all.Persons {
		want = append(want, p.ID)
	}
	if diff := cmp.Diff(want, walked); diff != "" {
		t.Errorf("paged walk differs from the full list (-want +got):\n%s", diff)
	}

	def, err := s.FindPersons(ctx, db.PersonFilter{})
	if err != nil || len(def.Persons) != db.DefaultLimit {
		t.Errorf("default page: %d persons, %v; want %d", len(def.Persons), err, db.DefaultLimit)
	}

	found, err := s.FindPersons(ctx, db.PersonFilter{Search: "lovelace", Limit: 10})
	if err != nil || len(found.Persons) != 1 || found.Persons[0].ID != seed.ShowcaseID {
		t.Errorf("search lovelace: %+v, %v", found.Persons, err)
	}
	// Wildcards are literal: "%" matches no name.
	none, err := s.FindPersons(ctx, db.PersonFilter{Search: "%_%"})
	if err != nil || len(none.Persons) != 0 {
		t.Errorf("search %%_%%: %d persons, %v; want none", len(none.Persons), err)
	}

	for _, tc := range []struct {
		name  string
		f     db.PersonFilter
		field string
	}{
		{"limit zero is default, negative is not", db.PersonFilter{Limit: -1}, "limit"},
		{"limit over max", db.PersonFilter{Limit: 1001}, "limit"},
		{"garbage cursor", db.PersonFilter{After: "not-a-cursor!"}, "after"},
		{"cursor of another list", db.PersonFilter{After: "eyJpIjoxfQ"}, "after"},
		{"search too long", db.PersonFilter{Search: strings.Repeat("a", 101)}, "search"},
		{"search with NUL", db.PersonFilter{Search: "a\x00b"}, "search"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.FindPersons(ctx, tc.f)
			wantCode(t, err, db.EINVALID, tc.field)
		})
	}
}

func TestCreatePersonValidation(t *testing.T) {
	s := dbtest.Store(t, dbtest.Empty(t), db.Options{})
	p, err := s.CreatePerson(ctx, validPerson(1))
	if err != nil {
		t.Fatal(err)
	}
	if p.ID == 0 || p.Version != 1 || p.CreatedAt.IsZero() || p.HiredOn != db.NewDate(2020, 3, 1) {
		t.Errorf("created %+v", p)
	}

	for _, tc := range []struct {
		name  string
		edit  func(*db.PersonInput)
		code  string
		field string
	}{
		{"empty first name", func(in *db.PersonInput) { in.FirstName = "" }, db.EINVALID, "firstName"},
		{"blank last name", func(in *db.PersonInput) { in.LastName = "   " }, db.EINVALID, "lastName"},
		{"name too long", func(in *db.PersonInput) { in.FirstName = strings.Repeat("é", 101) }, db.EINVALID, "firstName"},
		{"name with NUL", func(in *db.PersonInput) { in.FirstName = "a\x00" }, db.EINVALID, "firstName"},
		{"invalid UTF-8", func(in *db.PersonInput) { in.LastName = "\xff" }, db.EINVALID, "lastName"},
		{"bad email", func(in *db.PersonInput) { in.Email = "nobody" }, db.EINVALID, "email"},
		{"email with display name", func(in *db.PersonInput) { in.Email = "A <a@b.org>" }, db.EINVALID, "email"},
		{"zero employee number", func(in *db.PersonInput) { in.EmployeeNo = 0 }, db.EINVALID, "employeeNo"},
		{"unknown status", func(in *db.PersonInput) { in.Status = "retired" }, db.EINVALID, "status"},
		{"no hire date", func(in *db.PersonInput) { in.HiredOn = db.Date{} }, db.EINVALID, "hiredOn"},
		{"phone letters", func(in *db.PersonInput) { in.Phone = "call me" }, db.EINVALID, "phone"},
		{"duplicate email", func(in *db.PersonInput) { in.Email = "TEST.person@example.org" }, db.ECONFLICT, "email"},
		{"duplicate employee number", func(in *db.PersonInput) { in.EmployeeNo = p.EmployeeNo; in.Email = "x@example.org" }, db.ECONFLICT, "employeeNo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := validPerson(2)
			in.Email = "other@example.org"
			if tc.name == "duplicate email" {
				in.Email = "Test.Person@example.org"
			}
			tc.edit(&in)
			_, err := s.CreatePerson(ctx, in)
			wantCode(t, err, tc.code, tc.field)
		})
	}
	page, err := s.FindPersons(ctx, db.PersonFilter{})
	if err != nil || len(page.Persons) != 1 {
		t.Errorf("after rejected creates: %d persons, %v; want only the first", len(page.Persons), err)
	}
}

func TestUpdatePerson(t *testing.T) {
	s := dbtest.Store(t, dbtest.Empty(t), db.Options{})
	p, err := s.CreatePerson(ctx, validPerson(1))
	if err != nil {
		t.Fatal(err)
	}
	name := "Changed"
	u, err := s.UpdatePerson(ctx, p.ID, p.Version, db.PersonPatch{FirstName: &name})
	if err != nil {
		t.Fatal(err)
	}
	if u.FirstName != name || u.LastName != p.LastName || u.Version != p.Version+1 || !u.UpdatedAt.After(p.UpdatedAt) {
		t.Errorf("updated %+v from %+v", u, p)
	}

	other := "Stale"
	_, err = s.UpdatePerson(ctx, p.ID, p.Version, db.PersonPatch{FirstName: &other})
	wantCode(t, err, db.ECONFLICT, "version")

	empty := ""
	_, err = s.UpdatePerson(ctx, p.ID, u.Version, db.PersonPatch{FirstName: &empty})
	wantCode(t, err, db.EINVALID, "firstName")

	_, err = s.UpdatePerson(ctx, 424242, 1, db.PersonPatch{FirstName: &name})
	wantCode(t, err, db.ENOTFOUND, "")

	got, err := s.FindPersonByID(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, got); diff != "" {
		t.Errorf("rejected updates changed the row (-want +got):\n%s", diff)
	}
}

func TestDeletePersonCascades(t *testing.T) {
	url := dbtest.Seeded(t)
	s := dbtest.Store(t, url, db.Options{})
	if err := s.DeletePerson(ctx, seed.ShowcaseID); err != nil {
		t.Fatal(err)
	}
	_, err := s.FindPersonByID(ctx, seed.ShowcaseID)
	wantCode(t, err, db.ENOTFOUND, "")
	appts, err := s.FindAppointments(ctx, []int64{seed.ShowcaseID})
	if err != nil || len(appts) != 0 {
		t.Errorf("appointments after delete: %d, %v", len(appts), err)
	}
	// The showcase's appointments were the first twelve ids.
	ids := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	st, err := s.FindStipends(ctx, ids)
	if err != nil || len(st) != 0 {
		t.Errorf("stipends after delete: %d, %v", len(st), err)
	}
	f, err := s.FindFundings(ctx, ids)
	if err != nil || len(f) != 0 {
		t.Errorf("fundings after delete: %d, %v", len(f), err)
	}
	wantCode(t, s.DeletePerson(ctx, seed.ShowcaseID), db.ENOTFOUND, "")
}

func TestAppointmentChecks(t *testing.T) {
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{})
	ok := db.AppointmentInput{PersonID: 2, PositionTitle: "Fellow", Department: "Physics", FTE: 0.5, StartsOn: db.NewDate(2024, 1, 1)}
	a, err := s.CreateAppointment(ctx, ok)
	if err != nil {
		t.Fatal(err)
	}
	early := db.NewDate(2023, 1, 1)
	for _, tc := range []struct {
		name  string
		edit  func(*db.AppointmentInput)
		field string
	}{
		{"fte zero", func(in *db.AppointmentInput) { in.FTE = 0 }, "fte"},
		{"fte over one", func(in *db.AppointmentInput) { in.FTE = 1.5 }, "fte"},
		{"ends before start", func(in *db.AppointmentInput) { in.EndsOn = &early }, "endsOn"},
		{"no such person", func(in *db.AppointmentInput) { in.PersonID = 999999 }, "personId"},
		{"empty title", func(in *db.AppointmentInput) { in.PositionTitle = "" }, "positionTitle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ok
			tc.edit(&in)
			_, err := s.CreateAppointment(ctx, in)
			wantCode(t, err, db.EINVALID, tc.field)
		})
	}

	st, err := s.CreateStipend(ctx, db.StipendInput{AppointmentID: a.ID, PayerID: 1, AmountCents: 100, Currency: "EUR", StartsOn: a.StartsOn})
	if err != nil || st.Payer.Code != "P001" {
		t.Fatalf("stipend: %+v, %v", st, err)
	}
	_, err = s.CreateStipend(ctx, db.StipendInput{AppointmentID: a.ID, PayerID: 1, AmountCents: 0, Currency: "EUR", StartsOn: a.StartsOn})
	wantCode(t, err, db.EINVALID, "amountCents")
	_, err = s.CreateStipend(ctx, db.StipendInput{AppointmentID: a.ID, PayerID: 1, AmountCents: 1, Currency: "eur", StartsOn: a.StartsOn})
	wantCode(t, err, db.EINVALID, "currency")
	_, err = s.CreateStipend(ctx, db.StipendInput{AppointmentID: a.ID, PayerID: 4000, AmountCents: 1, Currency: "EUR", StartsOn: a.StartsOn})
	wantCode(t, err, db.EINVALID, "payerId")

	if _, err := s.CreateFunding(ctx, db.FundingInput{AppointmentID: a.ID, PayerID: 1, Percent: 60}); err != nil {
		t.Fatal(err)
	}
	_, err = s.CreateFunding(ctx, db.FundingInput{AppointmentID: a.ID, PayerID: 2, Percent: 41})
	wantCode(t, err, db.EINVALID, "percent")
	_, err = s.CreateFunding(ctx, db.FundingInput{AppointmentID: a.ID, PayerID: 1, Percent: 10})
	wantCode(t, err, db.ECONFLICT, "payerId")
	_, err = s.CreateFunding(ctx, db.FundingInput{AppointmentID: a.ID, PayerID: 3, Percent: 0})
	wantCode(t, err, db.EINVALID, "percent")
	if _, err := s.CreateFunding(ctx, db.FundingInput{AppointmentID: a.ID, PayerID: 2, Percent: 40}); err != nil {
		t.Errorf("fundings summing to exactly 100: %v", err)
	}
}

// TestFindPersonNames checks the picker's read: the persons of the full
// list, in its order, with their id and names, in one statement; a search
// on the names; the list's limits and search rules.
func TestFindPersonNames(t *testing.T) {
	var statements atomic.Int64
	s := dbtest.Store(t, dbtest.Seeded(t), db.Options{OnQuery: func(string) { statements.Add(1) }})

	all, err := s.FindPersons(ctx, db.PersonFilter{Limit: db.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	statements.Store(0)
	names, err := s.FindPersonNames(ctx, db.PersonNameFilter{Limit: db.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	if n := statements.Load(); n != 1 {
		t.Errorf("%d statements, want 1", n)
	}
	want := make([]db.PersonName, len(all.Persons))
	for i, p := range all.Persons {
		want[i] = db.PersonName{ID: p.ID, FirstName: p.FirstName, LastName: p.LastName}
	}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("names differ from the full list (-want +got):\n%s", d)
	}

	def, err := s.FindPersonNames(ctx, db.PersonNameFilter{})
	if err != nil || len(def) != db.DefaultLimit {
		t.Errorf("default: %d names, %v; want %d", len(def), err, db.DefaultLimit)
	}
	found, err := s.FindPersonNames(ctx, db.PersonNameFilter{Search: "ADA LOVE"})
	if err != nil || len(found) != 1 || found[0].ID != seed.ShowcaseID {
		t.Errorf("search ADA LOVE: %+v, %v", found, err)
	}
	// Wildcards are literal, and the e-mail address is not searched.
	for _, q := range []string{"%_%", "@"} {
		none, err := s.FindPersonNames(ctx, db.PersonNameFilter{Search: q})
		if err != nil || len(none) != 0 {
			t.Errorf("search %q: %d names, %v; want none", q, len(none), err)
		}
	}
	for _, tc := range []struct {
		name  string
		f     db.PersonNameFilter
		field string
	}{
		{"negative limit", db.PersonNameFilter{Limit: -1}, "limit"},
		{"limit over max", db.PersonNameFilter{Limit: db.MaxLimit + 1}, "limit"},
		{"search too long", db.PersonNameFilter{Search: strings.Repeat("a", db.MaxSearchLen+1)}, "search"},
		{"search with NUL", db.PersonNameFilter{Search: "a\x00b"}, "search"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.FindPersonNames(ctx, tc.f)
			wantCode(t, err, db.EINVALID, tc.field)
		})
	}
}
