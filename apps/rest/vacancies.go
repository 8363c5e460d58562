package main

import (
	"fmt"
	"log/slog"
	"net/http"

	"crudbench/apps/internal/jsonbody"
	"crudbench/db"
)

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
		in, err := decode[jsonbody.Vacancy](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		v, err := store.CreateVacancy(r.Context(), in.Input())
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
		in, err := decode[jsonbody.VacancyPatch](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		upd, err := in.Patch()
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
