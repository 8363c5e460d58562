package main

import (
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/health"
	"crudbench/db"
)

// addRoutes is the whole surface of the REST app. Health, readiness, the
// OpenAPI document and login are open; every other route needs a bearer
// token, and writes need the editor role. HEAD is served wherever GET is,
// as RFC 9110 asks: the GET handler runs and net/http drops the body.
func addRoutes(r chi.Router, logger *slog.Logger, store *db.Store, tokens *auth.Tokens) {
	r.Use(middleware.GetHead)
	r.Method(http.MethodGet, "/healthz", health.Live())
	r.Method(http.MethodGet, "/readyz", health.Ready(store))
	r.Method(http.MethodGet, "/openapi.yaml", handleOpenAPI())

	r.Route("/api", func(r chi.Router) {
		r.Method(http.MethodPost, "/login", handleLogin(logger, store, tokens))

		r.Group(func(r chi.Router) {
			r.Use(tokens.Bearer, requireUser)
			r.Method(http.MethodGet, "/persons", handlePersonList(logger, store))
			r.Method(http.MethodGet, "/persons/{id}", handlePersonGet(logger, store))
			r.Method(http.MethodGet, "/vacancies", handleVacancyList(logger, store))
			r.Method(http.MethodGet, "/vacancies/{id}", handleVacancyGet(logger, store))

			r.Group(func(r chi.Router) {
				r.Use(requireEditor)
				r.Method(http.MethodPost, "/persons", handlePersonCreate(logger, store))
				r.Method(http.MethodPatch, "/persons/{id}", handlePersonUpdate(logger, store))
				r.Method(http.MethodDelete, "/persons/{id}", handlePersonDelete(logger, store))
				r.Method(http.MethodPost, "/vacancies", handleVacancyCreate(logger, store))
				r.Method(http.MethodPatch, "/vacancies/{id}", handleVacancyUpdate(logger, store))
				r.Method(http.MethodDelete, "/vacancies/{id}", handleVacancyDelete(logger, store))
			})
		})
	})
}
