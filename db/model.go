package db

import "time"

// PersonStatus is where a person stands with the institute.
type PersonStatus string

// The person statuses.
const (
	PersonActive  PersonStatus = "active"
	PersonOnLeave PersonStatus = "on_leave"
	PersonFormer  PersonStatus = "former"
)

// PersonStatuses lists every PersonStatus in display order.
var PersonStatuses = []PersonStatus{PersonActive, PersonOnLeave, PersonFormer}

// PayerKind says where money comes from.
type PayerKind string

// The payer kinds.
const (
	PayerGrant      PayerKind = "grant"
	PayerDepartment PayerKind = "department"
	PayerExternal   PayerKind = "external"
)

// EmploymentType is the kind of contract a vacancy offers.
type EmploymentType string

// The employment types.
const (
	FullTime EmploymentType = "full_time"
	PartTime EmploymentType = "part_time"
	Contract EmploymentType = "contract"
)

// EmploymentTypes lists every EmploymentType in display order.
var EmploymentTypes = []EmploymentType{FullTime, PartTime, Contract}

// VacancyStatus is where a vacancy is in its life.
type VacancyStatus string

// The vacancy statuses.
const (
	VacancyDraft  VacancyStatus = "draft"
	VacancyOpen   VacancyStatus = "open"
	VacancyClosed VacancyStatus = "closed"
	VacancyFilled VacancyStatus = "filled"
)

// VacancyStatuses lists every VacancyStatus in display order.
var VacancyStatuses = []VacancyStatus{VacancyDraft, VacancyOpen, VacancyClosed, VacancyFilled}

// Role is what a user may do: viewers read, editors also write.
type Role string

// The roles.
const (
	RoleViewer Role = "viewer"
	RoleEditor Role = "editor"
)

// CanWrite reports whether the role may create, update and delete.
func (r Role) CanWrite() bool { return r == RoleEditor }

// Valid reports whether r is one of the known roles; tokens carrying any
// other role are rejected.
func (r Role) Valid() bool { return r == RoleViewer || r == RoleEditor }

// Payer is a source of money: a grant, a department or an outside body.
type Payer struct {
	ID   int64     `json:"id"`
	Code string    `json:"code"`
	Name string    `json:"name"`
	Kind PayerKind `json:"kind"`
}

// Person is a member of staff, without appointments.
type Person struct {
	ID         int64        `json:"id"`
	EmployeeNo int32        `json:"employeeNo"`
	FirstName  string       `json:"firstName"`
	LastName   string       `json:"lastName"`
	Email      string       `json:"email"`
	Phone      string       `json:"phone"`
	Department string       `json:"department"`
	Status     PersonStatus `json:"status"`
	HiredOn    Date         `json:"hiredOn"`
	Version    int32        `json:"version"`
	CreatedAt  time.Time    `json:"createdAt"`
	UpdatedAt  time.Time    `json:"updatedAt"`
}

// PersonDetail is a person with every appointment and, inside each, its
// stipends and fundings: the heavy nested read.
type PersonDetail struct {
	Person
	Appointments []Appointment `json:"appointments"`
}

// Appointment is a position a person holds for a period. Stipends and
// Fundings are filled by the nested reads and empty otherwise.
type Appointment struct {
	ID            int64     `json:"id"`
	PersonID      int64     `json:"personId"`
	PositionTitle string    `json:"positionTitle"`
	Department    string    `json:"department"`
	FTE           float64   `json:"fte"`
	StartsOn      Date      `json:"startsOn"`
	EndsOn        *Date     `json:"endsOn"`
	Stipends      []Stipend `json:"stipends"`
	Fundings      []Funding `json:"fundings"`
}

// Stipend is money paid on an appointment by a payer.
type Stipend struct {
	ID            int64  `json:"id"`
	AppointmentID int64  `json:"appointmentId"`
	Payer         Payer  `json:"payer"`
	AmountCents   int64  `json:"amountCents"`
	Currency      string `json:"currency"`
	StartsOn      Date   `json:"startsOn"`
	EndsOn        *Date  `json:"endsOn"`
}

// Funding is the share of an appointment a payer funds.
type Funding struct {
	AppointmentID int64   `json:"appointmentId"`
	Payer         Payer   `json:"payer"`
	Percent       float64 `json:"percent"`
}

// Vacancy is an advertised job.
type Vacancy struct {
	ID             int64          `json:"id"`
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
	Version        int32          `json:"version"`
	CreatedAt      time.Time      `json:"createdAt"`
	UpdatedAt      time.Time      `json:"updatedAt"`
}

// User is someone who may log in to the apps.
type User struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Role     Role   `json:"role"`
}
