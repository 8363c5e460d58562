// Package seed generates crudbench's deterministic dataset and loads it.
//
// The generator draws from a PCG source with a fixed seed and uses fixed
// timestamps, so every machine gets the same rows every time: a benchmark
// result can be compared with another one only if the data is the same.
package seed

import (
	"fmt"
	"math/rand/v2"
	"time"

	"crudbench/db"
)

// The showcase person is the heavy nested detail page: the lowest employee
// number, with ShowcaseAppointments appointments, each carrying
// ShowcaseStipends stipends and ShowcaseFundings fundings.
const (
	ShowcaseID           = 1
	ShowcaseEmployeeNo   = 1000
	ShowcaseFirstName    = "Ada"
	ShowcaseLastName     = "Lovelace"
	ShowcaseAppointments = 12
	ShowcaseStipends     = 3 // per appointment
	ShowcaseFundings     = 2 // per appointment
)

// Two rows are there so that validation can tell a right answer from one
// that only looks right on this data: the last payer's code sorts before
// every other code (fundings ordered by payer id instead of code differ),
// and the showcase's last appointment, with its stipends, is open-ended
// (an empty date instead of none differs). Both are set after the random
// draws, which stay as they were.
const (
	// ShowcaseOpenEnded is the showcase person's open-ended appointment:
	// the last of its ShowcaseAppointments, the current one.
	ShowcaseOpenEnded = ShowcaseAppointments
	// outOfOrderCode is the last payer's code: "P040" would sort last.
	outOfOrderCode = "A040"
)

// DefaultPersons is the default size: with it the dataset has about 1,500
// appointments, 4,000 stipends, 3,000 fundings, 40 payers and 120 vacancies.
const DefaultPersons = 500

// payerCount is fixed: payers are a lookup table, not a measure of size.
const payerCount = 40

// base is the fixed "now" of the dataset.
var base = time.Date(2025, time.January, 6, 9, 0, 0, 0, time.UTC)

// Dataset is the whole generated content, in insertion order.
type Dataset struct {
	Payers       []db.Payer
	Persons      []db.Person
	Appointments []db.Appointment
	Stipends     []db.Stipend // Payer holds only the ID
	Fundings     []db.Funding // Payer holds only the ID
	Vacancies    []db.Vacancy
}

// Generate builds the dataset for the given number of persons (at least 1;
// the first is the showcase person). Vacancies scale with persons (120 per
// 500, at least 4), about half of them open.
func Generate(persons int) *Dataset {
	persons = max(persons, 1)
	r := rand.New(rand.NewPCG(20250106, 42))
	d := &Dataset{}
	pick := func(s []string) string { return s[r.IntN(len(s))] }

	kinds := []db.PayerKind{db.PayerGrant, db.PayerDepartment, db.PayerExternal}
	for i := range payerCount {
		k := kinds[i%len(kinds)]
		var name string
		switch k {
		case db.PayerGrant:
			name = fmt.Sprintf("%s grant %d", pick(funders), 100+i)
		case db.PayerDepartment:
			name = fmt.Sprintf("Department of %s", departments[i%len(departments)])
		default:
			name = fmt.Sprintf("%s %s", pick(cities), pick(bodies))
		}
		code := fmt.Sprintf("P%03d", i+1)
		if i+1 == payerCount {
			code = outOfOrderCode
		}
		d.Payers = append(d.Payers, db.Payer{ID: int64(i + 1), Code: code, Name: name, Kind: k})
	}

	statuses := []db.PersonStatus{db.PersonActive, db.PersonActive, db.PersonActive, db.PersonActive, db.PersonOnLeave, db.PersonFormer}
	var apptID, stipendID int64
	for i := range persons {
		first, last := pick(firstNames), pick(lastNames)
		if i == 0 {
			first, last = ShowcaseFirstName, ShowcaseLastName
		}
		empNo := int32(ShowcaseEmployeeNo + i)
		dept := pick(departments)
		hired := db.DateOf(base).AddDays(-r.IntN(20 * 365))
		created := base.Add(time.Duration(i) * time.Minute)
		p := db.Person{
			ID: int64(i + 1), EmployeeNo: empNo, FirstName: first, LastName: last,
			Email:      fmt.Sprintf("%s.%s.%d@institute.example", lower(first), lower(last), empNo),
			Phone:      fmt.Sprintf("+44 20 %04d %04d", r.IntN(10000), r.IntN(10000)),
			Department: dept, Status: statuses[r.IntN(len(statuses))], HiredOn: hired,
			Version: 1, CreatedAt: created, UpdatedAt: created,
		}
		if i == 0 {
			p.Status = db.PersonActive
		}
		d.Persons = append(d.Persons, p)

		nAppt, nStip, nFund := 1+r.IntN(5), -1, -1
		if i == 0 {
			nAppt, nStip, nFund = ShowcaseAppointments, ShowcaseStipends, ShowcaseFundings
		}
		start := hired
		for range nAppt {
			apptID++
			a := db.Appointment{
				ID: apptID, PersonID: p.ID, PositionTitle: pick(positions), Department: pick(departments),
				FTE: ftes[r.IntN(len(ftes))], StartsOn: start,
			}
			if r.IntN(3) > 0 {
				end := start.AddDays(180 + r.IntN(3*365))
				a.EndsOn = &end
			}
			if i == 0 && a.ID == ShowcaseOpenEnded {
				a.EndsOn = nil
			}
			d.Appointments = append(d.Appointments, a)

			ns := nStip
			if ns < 0 {
				ns = []int{2, 3, 3}[r.IntN(3)]
			}
			for s := range ns {
				stipendID++
				st := db.Stipend{
					ID: stipendID, AppointmentID: a.ID, Payer: db.Payer{ID: int64(1 + r.IntN(payerCount))},
					AmountCents: int64(50_000 + r.IntN(400_000)), Currency: currencies[r.IntN(len(currencies))],
					StartsOn: start.AddDays(s * 90),
				}
				if a.EndsOn != nil && !a.EndsOn.Before(st.StartsOn) {
					st.EndsOn = a.EndsOn
				}
				d.Stipends = append(d.Stipends, st)
			}

			nf := nFund
			if nf < 0 {
				nf = 1 + r.IntN(3)
			}
			shares := splits[nf][r.IntN(len(splits[nf]))]
			for f, payer := range r.Perm(payerCount)[:nf] {
				d.Fundings = append(d.Fundings, db.Funding{AppointmentID: a.ID, Payer: db.Payer{ID: int64(payer + 1)}, Percent: shares[f]})
			}
			start = start.AddDays(30 + r.IntN(400))
		}
	}

	nVac := max(4, persons*120/DefaultPersons)
	others := []db.VacancyStatus{db.VacancyDraft, db.VacancyClosed, db.VacancyFilled}
	for i := range nVac {
		status := db.VacancyOpen
		if i%2 == 1 {
			status = others[(i/2)%len(others)]
		}
		min := int64(30_000+r.IntN(50_000)) * 100
		opens := db.DateOf(base).AddDays(-r.IntN(120))
		created := base.Add(time.Duration(i) * time.Hour)
		v := db.Vacancy{
			ID: int64(i + 1), Title: fmt.Sprintf("%s (%s)", pick(positions), pick(levels)),
			Department: pick(departments), Location: pick(cities),
			EmploymentType: db.EmploymentTypes[r.IntN(len(db.EmploymentTypes))],
			SalaryMinCents: min, SalaryMaxCents: min + int64(r.IntN(30_000))*100,
			Status: status, OpensOn: opens,
			Description: fmt.Sprintf("Join the %s team. %s", pick(departments), pick(blurbs)),
			Version:     1, CreatedAt: created, UpdatedAt: created,
		}
		if status != db.VacancyDraft {
			c := opens.AddDays(30 + r.IntN(60))
			v.ClosesOn = &c
		}
		if status == db.VacancyFilled {
			id := int64(1 + r.IntN(persons))
			v.FilledBy = &id
		}
		d.Vacancies = append(d.Vacancies, v)
	}
	return d
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

var (
	ftes       = []float64{1, 1, 1, 0.8, 0.5, 0.6, 0.25, 0.75}
	currencies = []string{"EUR", "EUR", "GBP", "USD", "CHF"}
	splits     = map[int][][]float64{
		1: {{100}, {50}, {80}},
		2: {{50, 50}, {60, 40}, {75, 25}, {30, 20}},
		3: {{50, 30, 20}, {40, 40, 20}, {34, 33, 33}},
	}
	firstNames = []string{"Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Margaret",
		"Ken", "Radia", "Dennis", "Shafi", "Leslie", "Sophie", "Tim", "Hedy", "Niklaus", "Katherine",
		"Claude", "Jean", "Tony", "Anita", "Robin", "Mary", "Peter", "Adele", "Linus", "Lynn", "Guido", "Carol"}
	lastNames = []string{"Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "McCarthy", "Hamilton",
		"Thompson", "Perlman", "Ritchie", "Goldwasser", "Lamport", "Wilson", "Berners-Lee", "Lamarr", "Wirth",
		"Johnson", "Shannon", "Sammet", "Hoare", "Borg", "Milner", "Keller", "Naur", "Goldberg", "Torvalds",
		"Conway", "van Rossum", "Shaw", "O'Neil", "Müller"}
	departments = []string{"Physics", "Chemistry", "Biology", "Mathematics", "Computer Science",
		"Earth Sciences", "Neuroscience", "Statistics", "Materials", "Astronomy"}
	positions = []string{"Research Fellow", "Postdoctoral Researcher", "Research Engineer", "Lab Manager",
		"PhD Student", "Principal Investigator", "Data Scientist", "Technician", "Senior Scientist", "Visiting Scholar"}
	levels  = []string{"junior", "senior", "lead", "staff"}
	funders = []string{"Wellcome", "ERC", "NSF", "Leverhulme", "Horizon", "DFG", "SNSF", "Royal Society"}
	cities  = []string{"Cambridge", "Heidelberg", "Zürich", "Grenoble", "Leiden", "Uppsala", "Bologna", "Ghent"}
	bodies  = []string{"Foundation", "Trust", "Industry Partnership", "Council", "Hospital"}
	blurbs  = []string{
		"You will design experiments and publish with us.",
		"We offer flexible hours and a friendly lab.",
		"Experience with large datasets is a plus.",
		"Teaching duties are light.",
	}
)
