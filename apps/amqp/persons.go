package main

import (
	"context"

	"crudbench/apps/internal/httpproblem"
	"crudbench/db"
)

// personRequest is the body of person.create, REST's.
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

// personPatchRequest is the body of person.update: the version it is
// based on and the fields to change.
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

// patch returns the Store's patch; no field of a person may be null.
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

// handlePersonList answers a page of persons (headers limit, after, q: a
// substring of first name, last name or email).
func handlePersonList(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		limit, err := limitParam(req)
		if err != nil {
			return 0, nil, err
		}
		after, err := param(req, "after")
		if err != nil {
			return 0, nil, err
		}
		q, err := param(req, "q")
		if err != nil {
			return 0, nil, err
		}
		res, err := store.FindPersons(ctx, db.PersonFilter{Search: q, After: after, Limit: limit})
		if e := db.ErrorOf(err); e != nil && e.Fields["search"] != "" {
			// The Store calls it search; here it is the q header.
			return 0, nil, httpproblem.BadRequest("invalid parameter", map[string]string{"q": e.Fields["search"]})
		}
		if err != nil {
			return 0, nil, err
		}
		return 200, newPage(res.Persons, res.NextCursor), nil
	}
}

// handlePersonGet answers a person with every appointment, stipend and
// funding: the nested read, in a fixed number of statements.
func handlePersonGet(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		id, err := idParam(req)
		if err != nil {
			return 0, nil, err
		}
		p, err := store.FindPersonDetail(ctx, id)
		if err != nil {
			return 0, nil, err
		}
		return 200, p, nil
	}
}

// handlePersonCreate stores a new person: 201 with it.
func handlePersonCreate(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		in, err := decode[personRequest](req)
		if err != nil {
			return 0, nil, err
		}
		p, err := store.CreatePerson(ctx, in.input())
		if err != nil {
			return 0, nil, err
		}
		return 201, p, nil
	}
}

// handlePersonUpdate changes the fields the body names, if the version it
// is based on is still current.
func handlePersonUpdate(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		id, err := idParam(req)
		if err != nil {
			return 0, nil, err
		}
		in, err := decode[personPatchRequest](req)
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
		p, err := store.UpdatePerson(ctx, id, version, upd)
		if err != nil {
			return 0, nil, err
		}
		return 200, p, nil
	}
}

// handlePersonDelete removes a person with their appointments: 204.
func handlePersonDelete(store *db.Store) handler {
	return func(ctx context.Context, req *request) (int, any, error) {
		id, err := idParam(req)
		if err != nil {
			return 0, nil, err
		}
		if err := store.DeletePerson(ctx, id); err != nil {
			return 0, nil, err
		}
		return 204, nil, nil
	}
}
