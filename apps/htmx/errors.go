package main

import (
	"fmt"
	"maps"
	"net/http"
	"slices"

	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// errorPage is the view model of every error page.
type errorPage struct {
	Layout
	Status  int
	Heading string
	Message string
	Details []string // per-field problems of a bad request
}

// fail is the one translator from the Store's errors to the site's answers:
// an error page with the status of the db.ErrorOf value's code. Forms handle
// EINVALID and ECONFLICT themselves (they re-render with messages) and call
// fail for the rest. Internal details go to the log (serve.LogError, with the
// cause), never to the page.
func (ui *views) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := db.ErrorOf(err)
	serve.LogError(r.Context(), ui.logger, e)
	switch e.Code {
	case db.ENOTFOUND:
		ui.errorPage(w, r, http.StatusNotFound, "Not found", e.Message+". It may have been deleted.")
	case db.EINVALID:
		ui.errorPage(w, r, http.StatusBadRequest, "Bad request", "The address asks for something this page cannot show.",
			fieldProblems(e.Fields)...)
	case db.ECONFLICT:
		ui.errorPage(w, r, http.StatusConflict, "Conflict", e.Message,
			fieldProblems(e.Fields)...)
	case db.EUNAUTHORIZED:
		ui.errorPage(w, r, http.StatusUnauthorized, "Not signed in", "Please sign in again.")
	case db.EUNAVAILABLE:
		w.Header().Set("Retry-After", serve.RetryAfter)
		ui.errorPage(w, r, http.StatusServiceUnavailable, "Database unavailable",
			"The site cannot reach its database right now. Nothing was lost; please try again in a few seconds.")
	default:
		ui.serverError(w, r)
	}
}

// fieldProblems lists field messages in a stable order ("limit must be …").
func fieldProblems(fields map[string]string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		out = append(out, k+" "+fields[k])
	}
	return out
}

// errorPage renders the error page with status.
func (ui *views) errorPage(w http.ResponseWriter, r *http.Request, status int, heading, message string, details ...string) {
	ui.page(w, r, status, "error", errorPage{
		Layout:  layout(w, r, heading, ""),
		Status:  status,
		Heading: heading,
		Message: message,
		Details: details,
	})
}

// serverError is the 500 page; it says nothing about the cause.
func (ui *views) serverError(w http.ResponseWriter, r *http.Request) {
	ui.errorPage(w, r, http.StatusInternalServerError, "Something went wrong",
		"The site hit an unexpected error. It has been logged; please try again.")
}

// panicked answers a request whose handler panicked (serve.Recover logs it).
func (ui *views) panicked(w http.ResponseWriter, r *http.Request) { ui.serverError(w, r) }

// notFound answers addresses no route matches.
func (ui *views) notFound(w http.ResponseWriter, r *http.Request) {
	ui.errorPage(w, r, http.StatusNotFound, "Page not found",
		fmt.Sprintf("There is no page at %s. Check the address, or start again from the lists.", r.URL.Path))
}

// methodNotAllowed answers a known address asked with the wrong method;
// serve.MethodNotAllowed has set Allow from the routes.
func (ui *views) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allowed := w.Header().Get("Allow")
	ui.errorPage(w, r, http.StatusMethodNotAllowed, "Method not allowed",
		fmt.Sprintf("%s cannot be used on %s; it answers %s.", r.Method, r.URL.Path, allowed))
}

// forbidden answers a viewer who tries to change data.
func (ui *views) forbidden(w http.ResponseWriter, r *http.Request) {
	ui.errorPage(w, r, http.StatusForbidden, "Editors only",
		"You are signed in with the viewer role: you can read everything, but creating, editing and deleting need the editor role.")
}

// crossOrigin answers a form post that another site's page sent.
func (ui *views) crossOrigin(w http.ResponseWriter, r *http.Request) {
	ui.errorPage(w, r, http.StatusForbidden, "Cross-site request refused",
		"This form was sent from another site, so it was ignored. Nothing was changed.")
}

// badForm answers a body that is not a readable form: 413 when it is larger
// than serve.MaxBodyBytes, 400 otherwise.
func (ui *views) badForm(w http.ResponseWriter, r *http.Request, err error) {
	if _, ok := err.(*http.MaxBytesError); ok {
		ui.tooLarge(w, r)
		return
	}
	ui.errorPage(w, r, http.StatusBadRequest, "Bad request", "The form could not be read. Nothing was saved.")
}

// tooLarge answers a body over serve.MaxBodyBytes.
func (ui *views) tooLarge(w http.ResponseWriter, r *http.Request) {
	ui.errorPage(w, r, http.StatusRequestEntityTooLarge, "Too much data",
		fmt.Sprintf("The form sent more than %d KiB. Nothing was saved.", serve.MaxBodyBytes>>10))
}
