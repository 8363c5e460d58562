package scenario

import (
	"cmp"
	"fmt"
	"slices"

	"crudbench/db"
	"crudbench/db/seed"
)

// ReferenceFromDataset computes, without a database, what the reads must
// return from a database seeded with d: the same Reference that
// ReferenceFromStore reads from such a database, field for field. An app
// attached alone is then compared with the data it should serve, not with
// its own answers.
//
// The seed fixes every field the database could otherwise set (ids,
// versions, created_at and updated_at), so nothing is left out of the
// comparison. Persons are ordered by last name, first name and id byte by
// byte, as PostgreSQL's C collation orders them (the runner's own database
// uses it); a database with a language collation may put "van Rossum"
// elsewhere, and is compared with its own rows by giving the runner
// DATABASE_URL.
func ReferenceFromDataset(d *seed.Dataset) (*Reference, error) {
	person, err := datasetPersonDetail(d, seed.ShowcaseID)
	if err != nil {
		return nil, err
	}
	var open []db.Vacancy
	for _, v := range d.Vacancies {
		if v.Status == db.VacancyOpen {
			open = append(open, v)
		}
	}
	slices.SortFunc(open, func(a, b db.Vacancy) int { return cmp.Compare(a.ID, b.ID) })
	persons := slices.Clone(d.Persons)
	slices.SortFunc(persons, func(a, b db.Person) int {
		return cmp.Or(cmp.Compare(a.LastName, b.LastName), cmp.Compare(a.FirstName, b.FirstName), cmp.Compare(a.ID, b.ID))
	})
	return referenceOf("dataset", person, open[:min(len(open), ReadSmallLimit)], persons[:min(len(persons), ReadManyLimit)])
}

// datasetPersonDetail assembles a person's detail as the store's
// FindPersonDetail does: appointments by start date and id, stipends by
// start date and id, fundings by payer code, payers filled in.
func datasetPersonDetail(d *seed.Dataset, id int64) (db.PersonDetail, error) {
	i := slices.IndexFunc(d.Persons, func(p db.Person) bool { return p.ID == id })
	if i < 0 {
		return db.PersonDetail{}, fmt.Errorf("the dataset has no person %d", id)
	}
	payers := map[int64]db.Payer{}
	for _, p := range d.Payers {
		payers[p.ID] = p
	}
	var appts []db.Appointment
	for _, a := range d.Appointments {
		if a.PersonID == id {
			appts = append(appts, a)
		}
	}
	slices.SortFunc(appts, func(a, b db.Appointment) int {
		return cmp.Or(a.StartsOn.Time().Compare(b.StartsOn.Time()), cmp.Compare(a.ID, b.ID))
	})
	byAppt := map[int64]int{}
	for i, a := range appts {
		byAppt[a.ID] = i
	}
	stipends := slices.Clone(d.Stipends)
	slices.SortFunc(stipends, func(a, b db.Stipend) int {
		return cmp.Or(cmp.Compare(a.AppointmentID, b.AppointmentID), a.StartsOn.Time().Compare(b.StartsOn.Time()), cmp.Compare(a.ID, b.ID))
	})
	for _, s := range stipends {
		if i, ok := byAppt[s.AppointmentID]; ok {
			s.Payer = payers[s.Payer.ID]
			appts[i].Stipends = append(appts[i].Stipends, s)
		}
	}
	fundings := slices.Clone(d.Fundings)
	for i := range fundings {
		fundings[i].Payer = payers[fundings[i].Payer.ID]
	}
	slices.SortFunc(fundings, func(a, b db.Funding) int {
		return cmp.Or(cmp.Compare(a.AppointmentID, b.AppointmentID), cmp.Compare(a.Payer.Code, b.Payer.Code))
	})
	for _, f := range fundings {
		if i, ok := byAppt[f.AppointmentID]; ok {
			appts[i].Fundings = append(appts[i].Fundings, f)
		}
	}
	return db.PersonDetail{Person: d.Persons[i], Appointments: appts}, nil
}
