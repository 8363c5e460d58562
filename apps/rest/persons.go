package main

import (
	"fmt"
	"log/slog"
	"net/http"

	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// personRequest is the body of POST /api/persons.
type personRequest struct {
	EmployeeNo int32           `json:"employeeNo"`
	FirstName  string          `json:"firstName"`
	LastName   string          `json:"lastName"`
	Email      string          `json:"email"`
	Phone      string          `json:"phone"`
	Department string          `json:"department"`
	Status     db.PersonStatus `json:"status"`
	HiredOn    date            `json:"hiredOn"`
}

func (p personRequest) input() db.PersonInput {
	return db.PersonInput{
		EmployeeNo: p.EmployeeNo, FirstName: p.FirstName, LastName: p.LastName, Email: p.Email,
		Phone: p.Phone, Department: p.Department, Status: p.Status, HiredOn: db.Date(p.HiredOn),
	}
}

// personPatchRequest is the body of PATCH /api/persons/{id}: the version it
// is based on and the fields to change.
type personPatchRequest struct {
	Version    optional[int32]           `json:"version"`
	EmployeeNo optional[int32]           `json:"employeeNo"`
	FirstName  optional[string]          `json:"firstName"`
	LastName   optional[string]          `json:"lastName"`
	Email      optional[string]          `json:"email"`
	Phone      optional[string]          `json:"phone"`
	Department optional[string]          `json:"department"`
	Status     optional[db.PersonStatus] `json:"status"`
	HiredOn    optional[date]            `json:"hiredOn"`
}

// patch returns the store's patch; no field of a person may be null.
func (p personPatchRequest) patch() (db.PersonPatch, error) {
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

// handlePersonList answers a page of persons, optionally filtered by q (a
// substring of first name, last name or email).
func handlePersonList(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit, err := limitParam(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		q := r.URL.Query()
		res, err := store.FindPersons(r.Context(), db.PersonFilter{Search: q.Get("q"), After: q.Get("after"), Limit: limit})
		if e := db.ErrorOf(err); e != nil && e.Fields["search"] != "" {
			// The store calls it search; here it is the q parameter.
			err = httpproblem.BadRequest("invalid query parameter", map[string]string{"q": e.Fields["search"]})
		}
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		encode(w, http.StatusOK, newPage(res.Persons, res.NextCursor))
	})
}

// handlePersonGet answers a person with every appointment, stipend and
// funding: the nested read, in a fixed number of statements.
func handlePersonGet(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		p, err := store.FindPersonDetail(r.Context(), id)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		setETag(w, p.Version)
		encode(w, http.StatusOK, p)
	})
}

// handlePersonCreate stores a new person: 201 with its Location and ETag.
func handlePersonCreate(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in, err := decode[personRequest](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		p, err := store.CreatePerson(r.Context(), in.input())
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		w.Header().Set("Location", fmt.Sprintf("/api/persons/%d", p.ID))
		setETag(w, p.Version)
		encode(w, http.StatusCreated, p)
	})
}

// handlePersonUpdate changes the fields a PATCH body names, if the version
// it is based on is still current.
func handlePersonUpdate(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		in, err := decode[personPatchRequest](r)
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
		p, err := store.UpdatePerson(r.Context(), id, version, upd)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		setETag(w, p.Version)
		encode(w, http.StatusOK, p)
	})
}

// handlePersonDelete removes a person with their appointments.
func handlePersonDelete(logger *slog.Logger, store *db.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := pathID(r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		if err := store.DeletePerson(r.Context(), id); err != nil {
			respondError(w, r, logger, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
