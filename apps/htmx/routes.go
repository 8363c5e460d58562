package main

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/health"
	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// addRoutes is the site's whole surface. Pages answer a full document, or
// the partial an htmx request asks for; writes answer 303 to the page to show
// next (HX-Location for htmx). Every form also works with JavaScript off,
// which is why deletes exist as GET …/delete (the page that asks first) and
// POST …/delete beside htmx's DELETE. Handlers are maker functions given
// what they use: the Store, the token issuer and ui, the views that render
// pages and error pages.
func addRoutes(r chi.Router, store *db.Store, tokens *auth.Tokens, ui *views) {
	r.Use(middleware.GetHead) // HEAD of every page, for curl -I and link checkers
	r.NotFound(ui.notFound)
	r.MethodNotAllowed(serve.MethodNotAllowed(ui.notFound, ui.methodNotAllowed))

	r.Method(http.MethodGet, "/healthz", health.Live())
	r.Method(http.MethodGet, "/readyz", health.Ready(store))
	r.Method(http.MethodGet, "/static/*", ui.static.handler(ui.notFound))

	r.Method(http.MethodGet, "/login", handleLoginForm(ui))
	r.Method(http.MethodPost, "/login", handleLogin(store, tokens, ui))
	r.Method(http.MethodPost, "/logout", handleLogout())

	r.Group(func(r chi.Router) {
		r.Use(requireSession)
		r.Method(http.MethodGet, "/", http.RedirectHandler("/persons", http.StatusSeeOther))

		r.Method(http.MethodGet, "/persons", handlePersonList(store, ui))
		r.Method(http.MethodGet, "/persons/options", handlePersonOptions(store, ui))
		r.Method(http.MethodGet, "/persons/{id}", handlePersonGet(store, ui))
		r.Method(http.MethodGet, "/vacancies", handleVacancyList(store, ui))
		r.Method(http.MethodGet, "/vacancies/{id}", handleVacancyGet(store, ui))

		r.Group(func(r chi.Router) {
			r.Use(requireEditor(ui))
			r.Method(http.MethodGet, "/persons/new", handlePersonNewForm(ui))
			r.Method(http.MethodPost, "/persons", handlePersonCreate(store, ui))
			r.Method(http.MethodGet, "/persons/{id}/edit", handlePersonEditForm(store, ui))
			r.Method(http.MethodPost, "/persons/{id}", handlePersonUpdate(store, ui))
			r.Method(http.MethodGet, "/persons/{id}/delete", handlePersonDeleteForm(store, ui))
			r.Method(http.MethodDelete, "/persons/{id}", handlePersonDelete(store, ui))
			r.Method(http.MethodPost, "/persons/{id}/delete", handlePersonDelete(store, ui))

			r.Method(http.MethodGet, "/vacancies/new", handleVacancyNewForm(ui))
			r.Method(http.MethodPost, "/vacancies", handleVacancyCreate(store, ui))
			r.Method(http.MethodGet, "/vacancies/{id}/edit", handleVacancyEditForm(store, ui))
			r.Method(http.MethodPost, "/vacancies/{id}", handleVacancyUpdate(store, ui))
			r.Method(http.MethodGet, "/vacancies/{id}/delete", handleVacancyDeleteForm(store, ui))
			r.Method(http.MethodDelete, "/vacancies/{id}", handleVacancyDelete(store, ui))
			r.Method(http.MethodPost, "/vacancies/{id}/delete", handleVacancyDelete(store, ui))
		})
	})
}
