package main

import (
	"fmt"
	"log/slog"
	"net/http"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/jsonbody"
	"crudbench/db"
)

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
		in, err := decode[jsonbody.Person](r)
		if err != nil {
			respondError(w, r, logger, err)
			return
		}
		p, err := store.CreatePerson(r.Context(), in.Input())
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
		in, err := decode[jsonbody.PersonPatch](r)
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
