package main

import (
	"fmt"
	"log/slog"
	"net/http"

	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// vacancyRequest is the body of POST /api/vacancies.
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

// vacancyPatchRequest is the body of PATCH /api/vacancies/{id}: the version
// it is based on and the fields to change. closesOn and filledBy may be
// null, which clears them.
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

// patch returns the store's patch.
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

// handleVacancyList answers a page of vacancies, optionally of one status.
func handleVacancyList(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit, err := limitParam(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		q := r.URL.Query()
		res, err := store.FindVacancies(r.Context(), db.VacancyFilter{
			Status: db.VacancyStatus(q.Get("status")), After: q.Get("after"), Limit: limit,
		})
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		encode(w, http.StatusOK, newPage(res.Vacancies, res.NextCursor))
	})
}

// handleVacancyGet answers one vacancy.
func handleVacancyGet(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		v, err := store.FindVacancyByID(r.Context(), id)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		setETag(w, v.Version)
		encode(w, http.StatusOK, v)
	})
}

// handleVacancyCreate stores a new vacancy: 201 with its Location and ETag.
func handleVacancyCreate(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := decode[vacancyRequest](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		v, err := store.CreateVacancy(r.Context(), in.input())
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		w.Header().Set("Location", fmt.Sprintf("/api/vacancies/%d", v.ID))
		setETag(w, v.Version)
		encode(w, http.StatusCreated, v)
	})
}

// handleVacancyUpdate changes the fields a PATCH body names, if the version
// it is based on is still current.
func handleVacancyUpdate(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		in, err := decode[vacancyPatchRequest](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		upd, err := in.patch()
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		version, err := versionOf(r, in.Version)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		v, err := store.UpdateVacancy(r.Context(), id, version, upd)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		setETag(w, v.Version)
		encode(w, http.StatusOK, v)
	})
}

// handleVacancyDelete removes a vacancy.
func handleVacancyDelete(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		if err := store.DeleteVacancy(r.Context(), id); err != nil {
			respondError(w, r, logger, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
