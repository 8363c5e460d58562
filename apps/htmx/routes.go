package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"crudbench/apps/internal/health"
)

// addRoutes is the site's whole surface. Pages answer a full document, or
// the partial an htmx request asks for; writes answer 303 to the page to show
// next (HX-Location for htmx). Every form also works with JavaScript off,
// which is why deletes exist as GET …/delete (the page that asks first) and
// POST …/delete beside htmx's DELETE.
func addRoutes(r chi.Router, s *site) {
	r.Use(middleware.GetHead) // HEAD of every page, for curl -I and link checkers
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	r.Method(http.MethodGet, "/healthz", health.Live())
	r.Method(http.MethodGet, "/readyz", health.Ready(s.store))
	r.Method(http.MethodGet, "/static/*", s.views.static.handler(s.notFound))

	r.Method(http.MethodGet, "/login", s.loginForm())
	r.Method(http.MethodPost, "/login", s.login())
	r.Method(http.MethodPost, "/logout", s.logout())

	r.Group(func(r chi.Router) {
		r.Use(s.requireSession)
		r.Method(http.MethodGet, "/", http.RedirectHandler("/persons", http.StatusSeeOther))

		r.Method(http.MethodGet, "/persons", s.personList())
		r.Method(http.MethodGet, "/persons/{id}", s.personDetail())
		r.Method(http.MethodGet, "/vacancies", s.vacancyList())
		r.Method(http.MethodGet, "/vacancies/{id}", s.vacancyDetail())

		r.Group(func(r chi.Router) {
			r.Use(s.requireEditor)
			r.Method(http.MethodGet, "/persons/new", s.personNewForm())
			r.Method(http.MethodPost, "/persons", s.personCreate())
			r.Method(http.MethodGet, "/persons/{id}/edit", s.personEditForm())
			r.Method(http.MethodPost, "/persons/{id}", s.personUpdate())
			r.Method(http.MethodGet, "/persons/{id}/delete", s.personDeleteForm())
			r.Method(http.MethodDelete, "/persons/{id}", s.personDelete())
			r.Method(http.MethodPost, "/persons/{id}/delete", s.personDelete())

			r.Method(http.MethodGet, "/vacancies/new", s.vacancyNewForm())
			r.Method(http.MethodPost, "/vacancies", s.vacancyCreate())
			r.Method(http.MethodGet, "/vacancies/{id}/edit", s.vacancyEditForm())
			r.Method(http.MethodPost, "/vacancies/{id}", s.vacancyUpdate())
			r.Method(http.MethodGet, "/vacancies/{id}/delete", s.vacancyDeleteForm())
			r.Method(http.MethodDelete, "/vacancies/{id}", s.vacancyDelete())
			r.Method(http.MethodPost, "/vacancies/{id}/delete", s.vacancyDelete())
		})
	})
}
