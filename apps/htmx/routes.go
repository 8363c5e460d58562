package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"crudbench/apps/internal/health"
	"crudbench/apps/internal/serve"
)

// addRoutes is the site's whole surface. Pages answer a full document, or
// the partial an htmx request asks for; writes answer 303 to the page to show
// next (HX-Location for htmx). Every form also works with JavaScript off,
// which is why deletes exist as GET …/delete (the page that asks first) and
// POST …/delete beside htmx's DELETE.
func addRoutes(r chi.Router, s *site) {
	r.Use(middleware.GetHead) // HEAD of every page, for curl -I and link checkers
	r.NotFound(s.notFound)
	r.MethodNotAllowed(serve.MethodNotAllowed(s.notFound, s.methodNotAllowed))

	r.Method(http.MethodGet, "/healthz", health.Live())
	r.Method(http.MethodGet, "/readyz", health.Ready(s.store))
	r.Method(http.MethodGet, "/static/*", s.views.static.handler(s.notFound))

	r.Method(http.MethodGet, "/login", s.handleLoginForm())
	r.Method(http.MethodPost, "/login", s.handleLogin())
	r.Method(http.MethodPost, "/logout", s.handleLogout())

	r.Group(func(r chi.Router) {
		r.Use(s.requireSession)
		r.Method(http.MethodGet, "/", http.RedirectHandler("/persons", http.StatusSeeOther))

		r.Method(http.MethodGet, "/persons", s.handlePersonList())
		r.Method(http.MethodGet, "/persons/{id}", s.handlePersonGet())
		r.Method(http.MethodGet, "/vacancies", s.handleVacancyList())
		r.Method(http.MethodGet, "/vacancies/{id}", s.handleVacancyGet())

		r.Group(func(r chi.Router) {
			r.Use(s.requireEditor)
			r.Method(http.MethodGet, "/persons/new", s.handlePersonNewForm())
			r.Method(http.MethodPost, "/persons", s.handlePersonCreate())
			r.Method(http.MethodGet, "/persons/{id}/edit", s.handlePersonEditForm())
			r.Method(http.MethodPost, "/persons/{id}", s.handlePersonUpdate())
			r.Method(http.MethodGet, "/persons/{id}/delete", s.handlePersonDeleteForm())
			r.Method(http.MethodDelete, "/persons/{id}", s.handlePersonDelete())
			r.Method(http.MethodPost, "/persons/{id}/delete", s.handlePersonDelete())

			r.Method(http.MethodGet, "/vacancies/new", s.handleVacancyNewForm())
			r.Method(http.MethodPost, "/vacancies", s.handleVacancyCreate())
			r.Method(http.MethodGet, "/vacancies/{id}/edit", s.handleVacancyEditForm())
			r.Method(http.MethodPost, "/vacancies/{id}", s.handleVacancyUpdate())
			r.Method(http.MethodGet, "/vacancies/{id}/delete", s.handleVacancyDeleteForm())
			r.Method(http.MethodDelete, "/vacancies/{id}", s.handleVacancyDelete())
			r.Method(http.MethodPost, "/vacancies/{id}/delete", s.handleVacancyDelete())
		})
	})
}
