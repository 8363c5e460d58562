package jsonbody

import (
	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// Vacancy is the body that creates a vacancy (REST's POST /api/vacancies,
// AMQP's vacancy.create).
type Vacancy struct {
	Title          string            `json:"title"`
	Department     string            `json:"department"`
	Location       string            `json:"location"`
	EmploymentType db.EmploymentType `json:"employmentType"`
	SalaryMinCents int64             `json:"salaryMinCents"`
	SalaryMaxCents int64             `json:"salaryMaxCents"`
	Status         db.VacancyStatus  `json:"status"`
	OpensOn        date              `json:"opensOn"`
	ClosesOn       *date             `json:"closesOn"`
	Description    string            `json:"description"`
	FilledBy       *int64            `json:"filledBy"`
}

// Input returns the store's input.
func (v Vacancy) Input() db.VacancyInput {
	return db.VacancyInput{
		Title: v.Title, Department: v.Department, Location: v.Location, EmploymentType: v.EmploymentType,
		SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents, Status: v.Status,
		OpensOn: db.Date(v.OpensOn), ClosesOn: datePtr(v.ClosesOn), Description: v.Description, FilledBy: v.FilledBy,
	}
}

// VacancyPatch is the body that updates a vacancy (REST's PATCH
// /api/vacancies/{id}, AMQP's vacancy.update): the version it is based on
// and the fields to change. closesOn and filledBy may be null, which
// clears them.
type VacancyPatch struct {
	Version        Optional[int32]             `json:"version"`
	Title          Optional[string]            `json:"title"`
	Department     Optional[string]            `json:"department"`
	Location       Optional[string]            `json:"location"`
	EmploymentType Optional[db.EmploymentType] `json:"employmentType"`
	SalaryMinCents Optional[int64]             `json:"salaryMinCents"`
	SalaryMaxCents Optional[int64]             `json:"salaryMaxCents"`
	Status         Optional[db.VacancyStatus]  `json:"status"`
	OpensOn        Optional[date]              `json:"opensOn"`
	ClosesOn       Optional[date]              `json:"closesOn"`
	Description    Optional[string]            `json:"description"`
	FilledBy       Optional[int64]             `json:"filledBy"`
}

// Patch returns the store's patch.
func (v VacancyPatch) Patch() (db.VacancyPatch, error) {
	null := map[string]string{}
	out := db.VacancyPatch{
		Title:          patchField(v.Title, "title", null),
		Department:     patchField(v.Department, "department", null),
		Location:       patchField(v.Location, "location", null),
		EmploymentType: patchField(v.EmploymentType, "employmentType", null),
		SalaryMinCents: patchField(v.SalaryMinCents, "salaryMinCents", null),
		SalaryMaxCents: patchField(v.SalaryMaxCents, "salaryMaxCents", null),
		Status:         patchField(v.Status, "status", null),
		OpensOn:        datePtr(patchField(v.OpensOn, "opensOn", null)),
		Description:    patchField(v.Description, "description", null),
		ClearClosesOn:  v.ClosesOn.Null,
		ClearFilledBy:  v.FilledBy.Null,
	}
	if v.ClosesOn.Set && !v.ClosesOn.Null {
		out.ClosesOn = datePtr(&v.ClosesOn.Value)
	}
	if v.FilledBy.Set && !v.FilledBy.Null {
		out.FilledBy = &v.FilledBy.Value
	}
	if len(null) > 0 {
		return out, httpproblem.BadRequest("a field that cannot be cleared is null", null)
	}
	return out, nil
}
