package main

import (
	"context"

	"crudbench/apps/internal/jsonbody"
	"crudbench/db"
)

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
		in, err := decode[jsonbody.Vacancy](req)
		if err != nil {
			return 0, nil, err
		}
		v, err := store.CreateVacancy(ctx, in.Input())
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
		in, err := decode[jsonbody.VacancyPatch](req)
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
