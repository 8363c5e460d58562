package seed_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"crudbench/db"
	"crudbench/db/dbtest"
	"crudbench/db/seed"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// checksum digests every seeded row of every table in a fixed order. The
// users' password hashes are left out: bcrypt salts them at random.
func checksum(t *testing.T, url string) map[string]string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	out := map[string]string{}
	for table, order := range map[string]string{
		"payer": "id", "person": "id", "appointment": "id", "stipend": "id",
		"funding": "appointment_id, payer_id", "vacancy": "id",
	} {
		var sum string
		q := "SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY " + order + "), '')) FROM " + table + " t"
		if err := conn.QueryRow(ctx, q).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		out[table] = sum
	}
	var users string
	if err := conn.QueryRow(ctx, "SELECT string_agg(username || ':' || role, ',' ORDER BY username) FROM app_user").Scan(&users); err != nil {
		t.Fatal(err)
	}
	out["app_user"] = users
	return out
}

func TestLoadIsDeterministic(t *testing.T) {
	ctx := context.Background()
	a, b := dbtest.Empty(t), dbtest.Empty(t)
	cfg := seed.Config{Persons: seed.DefaultPersons, ViewerPassword: "v", EditorPassword: "e"}

	start := time.Now()
	st, err := seed.Load(ctx, a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded the default size in %v: %+v", time.Since(start), st)
	if _, err := seed.Load(ctx, b, cfg); err != nil {
		t.Fatal(err)
	}
	sa, sb := checksum(t, a), checksum(t, b)
	for table := range sa {
		if sa[table] != sb[table] {
			t.Errorf("table %s differs between two seeds: %s vs %s", table, sa[table], sb[table])
		}
	}

	// The sizes DESIGN.md promises for the default dataset.
	for _, c := range []struct {
		name     string
		got      int
		min, max int
	}{
		{"payers", st.Payers, 40, 40},
		{"persons", st.Persons, 500, 500},
		{"appointments", st.Appointments, 1350, 1650},
		{"stipends", st.Stipends, 3600, 4400},
		{"fundings", st.Fundings, 2700, 3300},
		{"vacancies", st.Vacancies, 120, 120},
		{"users", st.Users, 2, 2},
	} {
		if c.got < c.min || c.got > c.max {
			t.Errorf("%s = %d, want %d..%d", c.name, c.got, c.min, c.max)
		}
	}

	// A second load changes no row and says so.
	again, err := seed.Load(ctx, a, cfg)
	if err != nil || !again.Skipped || again.Users != 0 {
		t.Fatalf("second load: %+v, %v; want skipped, no user written", again, err)
	}
	if after := checksum(t, a); after["person"] != sa["person"] || after["vacancy"] != sa["vacancy"] {
		t.Error("a second load changed rows")
	}

	// After a reset the same rows come back, and new rows get fresh ids.
	if err := seed.Reset(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Load(ctx, a, cfg); err != nil {
		t.Fatal(err)
	}
	if after := checksum(t, a); after["stipend"] != sa["stipend"] {
		t.Error("reset + load gave different stipends")
	}
	s := dbtest.Store(t, a, db.Options{})
	v, err := s.CreateVacancy(ctx, db.VacancyInput{
		Title: "New", Department: "Physics", Location: "Ghent", EmploymentType: db.Contract,
		SalaryMinCents: 1, SalaryMaxCents: 2, OpensOn: db.NewDate(2026, 1, 1),
	})
	if err != nil || v.ID != int64(st.Vacancies)+1 {
		t.Errorf("vacancy after seed got id %d, %v; want %d", v.ID, err, st.Vacancies+1)
	}
	u, err := s.Authenticate(ctx, "editor", "e")
	if err != nil || u.Role != db.RoleEditor {
		t.Errorf("seeded editor cannot log in with the configured password: %v", err)
	}
}

func TestGenerateShowcaseAndScale(t *testing.T) {
	d := seed.Generate(seed.DefaultPersons)
	p := d.Persons[0]
	if p.ID != seed.ShowcaseID || p.EmployeeNo != seed.ShowcaseEmployeeNo || p.LastName != seed.ShowcaseLastName {
		t.Errorf("first person is %+v, want the showcase", p)
	}
	for _, q := range d.Persons[1:] {
		if q.EmployeeNo <= p.EmployeeNo {
			t.Fatalf("person %d has employee number %d, not above the showcase's", q.ID, q.EmployeeNo)
		}
	}
	open := 0
	for _, v := range d.Vacancies {
		if v.Status == db.VacancyOpen {
			open++
		}
	}
	if open != len(d.Vacancies)/2 {
		t.Errorf("%d of %d vacancies open, want half", open, len(d.Vacancies))
	}
	// Rows a wrong answer cannot pass on: an open-ended appointment of
	// the showcase, and fundings of it whose payers' codes are in another
	// order than their ids.
	var openEnded []int64
	for _, a := range d.Appointments {
		if a.PersonID == seed.ShowcaseID && a.EndsOn == nil {
			openEnded = append(openEnded, a.ID)
		}
	}
	if len(openEnded) != 1 || openEnded[0] != seed.ShowcaseOpenEnded {
		t.Errorf("the showcase's open-ended appointments are %v, want [%d]", openEnded, seed.ShowcaseOpenEnded)
	}
	code := map[int64]string{}
	for _, p := range d.Payers {
		code[p.ID] = p.Code
	}
	fundings := map[int64][]db.Funding{}
	for _, f := range d.Fundings {
		fundings[f.AppointmentID] = append(fundings[f.AppointmentID], f)
	}
	apart := false
	for id := int64(1); id <= seed.ShowcaseAppointments; id++ {
		fs := fundings[id]
		for i := 1; i < len(fs); i++ {
			for j := range i {
				if (fs[i].Payer.ID < fs[j].Payer.ID) != (code[fs[i].Payer.ID] < code[fs[j].Payer.ID]) {
					apart = true
				}
			}
		}
	}
	if !apart {
		t.Error("every showcase appointment's fundings are in the same order by payer id as by payer code")
	}
	small := seed.Generate(10)
	if len(small.Persons) != 10 || len(small.Vacancies) != 4 {
		t.Errorf("size 10: %d persons, %d vacancies", len(small.Persons), len(small.Vacancies))
	}
	big := seed.Generate(2000)
	if len(big.Vacancies) != 480 {
		t.Errorf("size 2000: %d vacancies, want 480", len(big.Vacancies))
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{"SEED_PERSONS": "42", "SEED_EDITOR_PASSWORD": "s3cret"}
	c, err := seed.ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil || c.Persons != 42 || c.EditorPassword != "s3cret" || c.ViewerPassword != seed.DefaultViewerPassword {
		t.Errorf("config = %+v, %v", c, err)
	}
	env["SEED_PERSONS"] = "many"
	if _, err := seed.ConfigFromEnv(func(k string) string { return env[k] }); err == nil {
		t.Error("SEED_PERSONS=many accepted")
	}
}
