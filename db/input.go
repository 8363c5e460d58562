package db

import (
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PersonInput is everything a new person needs. Status defaults to active.
type PersonInput struct {
	EmployeeNo int32        `json:"employeeNo"`
	FirstName  string       `json:"firstName"`
	LastName   string       `json:"lastName"`
	Email      string       `json:"email"`
	Phone      string       `json:"phone"`
	Department string       `json:"department"`
	Status     PersonStatus `json:"status"`
	HiredOn    Date         `json:"hiredOn"`
}

// PersonPatch changes the fields it sets (nil leaves a field alone).
type PersonPatch struct {
	EmployeeNo *int32        `json:"employeeNo"`
	FirstName  *string       `json:"firstName"`
	LastName   *string       `json:"lastName"`
	Email      *string       `json:"email"`
	Phone      *string       `json:"phone"`
	Department *string       `json:"department"`
	Status     *PersonStatus `json:"status"`
	HiredOn    *Date         `json:"hiredOn"`
}

// VacancyInput is everything a new vacancy needs. Status defaults to draft.
type VacancyInput struct {
	Title          string         `json:"title"`
	Department     string         `json:"department"`
	Location       string         `json:"location"`
	EmploymentType EmploymentType `json:"employmentType"`
	SalaryMinCents int64          `json:"salaryMinCents"`
	SalaryMaxCents int64          `json:"salaryMaxCents"`
	Status         VacancyStatus  `json:"status"`
	OpensOn        Date           `json:"opensOn"`
	ClosesOn       *Date          `json:"closesOn"`
	Description    string         `json:"description"`
	FilledBy       *int64         `json:"filledBy"`
}

// VacancyPatch changes the fields it sets. ClosesOn and FilledBy can also be
// cleared: set ClearClosesOn or ClearFilledBy (JSON null in a PATCH body).
type VacancyPatch struct {
	Title          *string
	Department     *string
	Location       *string
	EmploymentType *EmploymentType
	SalaryMinCents *int64
	SalaryMaxCents *int64
	Status         *VacancyStatus
	OpensOn        *Date
	ClosesOn       *Date
	ClearClosesOn  bool
	Description    *string
	FilledBy       *int64
	ClearFilledBy  bool
}

// AppointmentInput is a position given to a person.
type AppointmentInput struct {
	PersonID      int64
	PositionTitle string
	Department    string
	FTE           float64
	StartsOn      Date
	EndsOn        *Date
}

// StipendInput is money paid on an appointment.
type StipendInput struct {
	AppointmentID int64
	PayerID       int64
	AmountCents   int64
	Currency      string
	StartsOn      Date
	EndsOn        *Date
}

// FundingInput is the share of an appointment a payer funds.
type FundingInput struct {
	AppointmentID int64
	PayerID       int64
	Percent       float64
}

// The field limits, defined here once. The Store's validation and its
// messages use them, the site's forms give them to the browser, and tests
// check that the OpenAPI document (apps/rest) and the migrations' CHECK
// constraints (TestLimitsMatchSchema) say the same. Lengths count
// characters (runes), as PostgreSQL's char_length does.
const (
	MaxNameLen        = 100   // first and last names, departments, locations
	MaxTitleLen       = 200   // vacancy titles, appointments' position titles
	MaxEmailLen       = 254   // the longest address SMTP can carry
	MaxPhoneLen       = 40    // free-form phone numbers, extensions included
	MaxDescriptionLen = 10000 // a vacancy's description
	// MaxSalaryCents caps a vacancy's salaries: a billion a year is not a
	// typo we accept. The database does not repeat this one.
	MaxSalaryCents = 1_000_000_000_00
)

func (p PersonPatch) apply(in PersonInput) PersonInput {
	set(&in.EmployeeNo, p.EmployeeNo)
	set(&in.FirstName, p.FirstName)
	set(&in.LastName, p.LastName)
	set(&in.Email, p.Email)
	set(&in.Phone, p.Phone)
	set(&in.Department, p.Department)
	set(&in.Status, p.Status)
	set(&in.HiredOn, p.HiredOn)
	return in
}

func (p VacancyPatch) apply(in VacancyInput) VacancyInput {
	set(&in.Title, p.Title)
	set(&in.Department, p.Department)
	set(&in.Location, p.Location)
	set(&in.EmploymentType, p.EmploymentType)
	set(&in.SalaryMinCents, p.SalaryMinCents)
	set(&in.SalaryMaxCents, p.SalaryMaxCents)
	set(&in.Status, p.Status)
	set(&in.OpensOn, p.OpensOn)
	set(&in.Description, p.Description)
	if p.ClosesOn != nil {
		in.ClosesOn = p.ClosesOn
	}
	if p.ClearClosesOn {
		in.ClosesOn = nil
	}
	if p.FilledBy != nil {
		in.FilledBy = p.FilledBy
	}
	if p.ClearFilledBy {
		in.FilledBy = nil
	}
	return in
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// problems collects per-field messages; the first message for a field wins.
type problems map[string]string

func (p problems) add(field, format string, args ...any) {
	if _, ok := p[field]; !ok {
		p[field] = fmt.Sprintf(format, args...)
	}
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return invalid(p)
}

// text checks a single-line text field: length in runes within [min, max],
// valid UTF-8, no control characters (PostgreSQL refuses NUL outright).
func (p problems) text(field, v string, min, max int) {
	p.textBlock(field, v, min, max, false)
}

func (p problems) textBlock(field, v string, min, max int, multiline bool) {
	if !utf8.ValidString(v) {
		p.add(field, "must be valid UTF-8")
		return
	}
	for _, r := range v {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\r' || r == '\t')) {
			p.add(field, "must not contain control characters")
			return
		}
	}
	n := utf8.RuneCountInString(v)
	switch {
	case min > 0 && strings.TrimSpace(v) == "":
		p.add(field, "is required")
	case n < min:
		p.add(field, "must be at least %d characters", min)
	case n > max:
		p.add(field, "must be at most %d characters", max)
	}
}

func (p problems) date(field string, d Date, required bool) {
	if d.IsZero() {
		if required {
			p.add(field, "is required")
		}
		return
	}
	if y := d.Time().Year(); y < 1900 || y > 2200 {
		p.add(field, "must be a year between 1900 and 2200")
	}
}

func (in PersonInput) validate() error {
	p := problems{}
	if in.EmployeeNo <= 0 {
		p.add("employeeNo", "must be a positive number")
	}
	p.text("firstName", in.FirstName, 1, MaxNameLen)
	p.text("lastName", in.LastName, 1, MaxNameLen)
	p.text("email", in.Email, 1, MaxEmailLen)
	if _, ok := p["email"]; !ok {
		if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email || a.Name != "" {
			p.add("email", "must be a valid email address like name@example.org")
		}
	}
	p.text("phone", in.Phone, 0, MaxPhoneLen)
	if strings.ContainsFunc(in.Phone, func(r rune) bool { return !strings.ContainsRune("0123456789+-(). ", r) }) {
		p.add("phone", "may contain only digits, spaces and + - ( ) .")
	}
	p.text("department", in.Department, 1, MaxNameLen)
	if !slices.Contains(PersonStatuses, in.Status) {
		p.add("status", "must be one of %s", list(PersonStatuses))
	}
	p.date("hiredOn", in.HiredOn, true)
	return p.err()
}

func (in VacancyInput) validate() error {
	p := problems{}
	p.text("title", in.Title, 1, MaxTitleLen)
	p.text("department", in.Department, 1, MaxNameLen)
	p.text("location", in.Location, 1, MaxNameLen)
	if !slices.Contains(EmploymentTypes, in.EmploymentType) {
		p.add("employmentType", "must be one of %s", list(EmploymentTypes))
	}
	if in.SalaryMinCents < 0 || in.SalaryMinCents > MaxSalaryCents {
		p.add("salaryMinCents", "must be between 0 and %d", int64(MaxSalaryCents))
	}
	if in.SalaryMaxCents < 0 || in.SalaryMaxCents > MaxSalaryCents {
		p.add("salaryMaxCents", "must be between 0 and %d", int64(MaxSalaryCents))
	} else if in.SalaryMaxCents < in.SalaryMinCents {
		p.add("salaryMaxCents", "must not be less than salaryMinCents")
	}
	if !slices.Contains(VacancyStatuses, in.Status) {
		p.add("status", "must be one of %s", list(VacancyStatuses))
	}
	p.date("opensOn", in.OpensOn, true)
	if in.ClosesOn != nil {
		p.date("closesOn", *in.ClosesOn, false)
		if in.ClosesOn.Before(in.OpensOn) {
			p.add("closesOn", "must not be before opensOn")
		}
	}
	p.textBlock("description", in.Description, 0, MaxDescriptionLen, true)
	if in.FilledBy != nil && *in.FilledBy <= 0 {
		p.add("filledBy", "must be the id of a person")
	}
	return p.err()
}

func (in AppointmentInput) validate() error {
	p := problems{}
	if in.PersonID <= 0 {
		p.add("personId", "must be the id of a person")
	}
	p.text("positionTitle", in.PositionTitle, 1, MaxTitleLen)
	p.text("department", in.Department, 1, MaxNameLen)
	if !(in.FTE > 0 && in.FTE <= 1) {
		p.add("fte", "must be greater than 0 and at most 1")
	}
	p.date("startsOn", in.StartsOn, true)
	if in.EndsOn != nil && in.EndsOn.Before(in.StartsOn) {
		p.add("endsOn", "must not be before startsOn")
	}
	return p.err()
}

func (in StipendInput) validate() error {
	p := problems{}
	if in.AppointmentID <= 0 {
		p.add("appointmentId", "must be the id of an appointment")
	}
	if in.PayerID <= 0 {
		p.add("payerId", "must be the id of a payer")
	}
	if in.AmountCents <= 0 {
		p.add("amountCents", "must be greater than 0")
	}
	if len(in.Currency) != 3 || strings.ToUpper(in.Currency) != in.Currency ||
		strings.ContainsFunc(in.Currency, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		p.add("currency", "must be an ISO 4217 code like EUR")
	}
	p.date("startsOn", in.StartsOn, true)
	if in.EndsOn != nil && in.EndsOn.Before(in.StartsOn) {
		p.add("endsOn", "must not be before startsOn")
	}
	return p.err()
}

func (in FundingInput) validate() error {
	p := problems{}
	if in.AppointmentID <= 0 {
		p.add("appointmentId", "must be the id of an appointment")
	}
	if in.PayerID <= 0 {
		p.add("payerId", "must be the id of a payer")
	}
	if !(in.Percent > 0 && in.Percent <= 100) {
		p.add("percent", "must be greater than 0 and at most 100")
	}
	return p.err()
}

func list[T ~string](all []T) string {
	s := make([]string, len(all))
	for i, a := range all {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}
