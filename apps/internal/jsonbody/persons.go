package jsonbody

import (
	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// Person is the body that creates a person (REST's POST /api/persons,
// AMQP's person.create).
type Person struct {
	EmployeeNo int32           `json:"employeeNo"`
	FirstName  string          `json:"firstName"`
	LastName   string          `json:"lastName"`
	Email      string          `json:"email"`
	Phone      string          `json:"phone"`
	Department string          `json:"department"`
	Status     db.PersonStatus `json:"status"`
	HiredOn    date            `json:"hiredOn"`
}

// Input returns the store's input.
func (p Person) Input() db.PersonInput {
	return db.PersonInput{
		EmployeeNo: p.EmployeeNo, FirstName: p.FirstName, LastName: p.LastName, Email: p.Email,
		Phone: p.Phone, Department: p.Department, Status: p.Status, HiredOn: db.Date(p.HiredOn),
	}
}

// PersonPatch is the body that updates a person (REST's PATCH
// /api/persons/{id}, AMQP's person.update): the version it is based on
// and the fields to change.
type PersonPatch struct {
	Version    Optional[int32]           `json:"version"`
	EmployeeNo Optional[int32]           `json:"employeeNo"`
	FirstName  Optional[string]          `json:"firstName"`
	LastName   Optional[string]          `json:"lastName"`
	Email      Optional[string]          `json:"email"`
	Phone      Optional[string]          `json:"phone"`
	Department Optional[string]          `json:"department"`
	Status     Optional[db.PersonStatus] `json:"status"`
	HiredOn    Optional[date]            `json:"hiredOn"`
}

// Patch returns the store's patch; no field of a person may be null.
func (p PersonPatch) Patch() (db.PersonPatch, error) {
	null := map[string]string{}
	out := db.PersonPatch{
		EmployeeNo: patchField(p.EmployeeNo, "employeeNo", null),
		FirstName:  patchField(p.FirstName, "firstName", null),
		LastName:   patchField(p.LastName, "lastName", null),
		Email:      patchField(p.Email, "email", null),
		Phone:      patchField(p.Phone, "phone", null),
		Department: patchField(p.Department, "department", null),
		Status:     patchField(p.Status, "status", null),
		HiredOn:    datePtr(patchField(p.HiredOn, "hiredOn", null)),
	}
	if len(null) > 0 {
		return out, httpproblem.BadRequest("a field that cannot be cleared is null", null)
	}
	return out, nil
}
