package main

import (
	"context"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/jsonbody"
	"crudbench/db"
)

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
		in, err := decode[jsonbody.Person](req)
		if err != nil {
			return 0, nil, err
		}
		p, err := store.CreatePerson(ctx, in.Input())
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
		in, err := decode[jsonbody.PersonPatch](req)
		if err != nil {
			return 0, nil, err
		}
		upd, err := in.Patch()
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
