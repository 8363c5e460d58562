package main

import (
	"context"

	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// vacancyRequest is the body of vacancy.create, REST's.
type vacancyRequest struct {
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

func (v vacancyRequest) input() db.VacancyInput {
	return db.VacancyInput{
		Title: v.Title, Department: v.Department, Location: v.Location, EmploymentType: v.EmploymentType,
		SalaryMinCents: v.SalaryMinCents, SalaryMaxCents: v.SalaryMaxCents, Status: v.Status,
		OpensOn: db.Date(v.OpensOn), ClosesOn: datePtr(v.ClosesOn), Description: v.Description, FilledBy: v.FilledBy,
	}
}

// vacancyPatchRequest is the body of vacancy.update: the version it is
// based on and the fields to change. closesOn and filledBy may be null,
// which clears them.
type vacancyPatchRequest struct {
	Version        optional[int32]             `json:"version"`
	Title          optional[string]            `json:"title"`
	Department     optional[string]            `json:"department"`
	Location       optional[string]            `json:"location"`
	EmploymentType optional[db.EmploymentType] `json:"employmentType"`
	SalaryMinCents optional[int64]             `json:"salaryMinCents"`
	SalaryMaxCents optional[int64]             `json:"salaryMaxCents"`
	Status         optional[db.VacancyStatus]  `json:"status"`
	OpensOn        optional[date]              `json:"opensOn"`
	ClosesOn       optional[date]              `json:"closesOn"`
	Description    optional[string]            `json:"description"`
	FilledBy       optional[int64]             `json:"filledBy"`
}

// patch returns the Store's patch.
func (v vacancyPatchRequest) patch() (db.VacancyPatch, error) {
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

// handleVacancyList answers a page of vacancies (headers status, limit,
// after).
func handleVacancyList(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		limit, err := limitParam(req)
		if err != nil {
			return 0, nil, err
		}
		status, err := param(req, "status")
		if err != nil {
			return 0, nil, err
		}
		after, err := param(req, "after")
		if err != nil {
			return 0, nil, err
		}
		res, err := store.FindVacancies(ctx, db.VacancyFilter{Status: db.VacancyStatus(status), After: after, Limit: limit})
		if err != nil {
			return 0, nil, err
		}
		return 200, newPage(res.Vacancies, res.NextCursor), nil
	}
}

// handleVacancyGet answers one vacancy.
func handleVacancyGet(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		id, err := idParam(req)
		if err != nil {
			return 0, nil, err
		}
		v, err := store.FindVacancyByID(ctx, id)
		if err != nil {
			return 0, nil, err
		}
		return 200, v, nil
	}
}

// handleVacancyCreate stores a new vacancy: 201 with it.
func handleVacancyCreate(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		in, err := decode[vacancyRequest](req)
		if err != nil {
			return 0, nil, err
		}
		v, err := store.CreateVacancy(ctx, in.input())
		if err != nil {
			return 0, nil, err
		}
		return 201, v, nil
	}
}

// handleVacancyUpdate changes the fields the body names, if the version
// it is based on is still current.
func handleVacancyUpdate(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		id, err := idParam(req)
		if err != nil {
			return 0, nil, err
		}
		in, err := decode[vacancyPatchRequest](req)
		if err != nil {
			return 0, nil, err
		}
		upd, err := in.patch()
		if err != nil {
			return 0, nil, err
		}
		version, err := versionOf(in.Version)
		if err != nil {
			return 0, nil, err
		}
		v, err := store.UpdateVacancy(ctx, id, version, upd)
		if err != nil {
			return 0, nil, err
		}
		return 200, v, nil
	}
}

// handleVacancyDelete removes a vacancy: 204.
func handleVacancyDelete(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		id, err := idParam(req)
		if err != nil {
			return 0, nil, err
		}
		if err := store.DeleteVacancy(ctx, id); err != nil {
			return 0, nil, err
		}
		return 204, nil, nil
	}
}
