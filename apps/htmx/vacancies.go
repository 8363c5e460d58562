package main

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"crudbench/db"
)

// vacancyListPage is the view model of /vacancies (block "vacancy-results" is
// what the status filter swaps).
type vacancyListPage struct {
	Layout
	Status    string // the filter, "" for all
	Statuses  []option
	Limit     int
	Vacancies []db.Vacancy
	FirstURL  string
	NextURL   string
}

// vacancyDetailPage is the view model of /vacancies/{id}.
type vacancyDetailPage struct {
	Layout
	Vacancy  db.Vacancy
	FilledBy *db.Person // the person in FilledBy, when it still exists
}

// vacancySpecs are the fields of the vacancy form. Salaries are entered in
// whole currency units (the APIs' salaryMinCents and salaryMaxCents are in
// cents): people think in 52,000, not 5,200,000.
var vacancySpecs = []fieldSpec{
	{Name: "title", Label: "Title", Type: "text", Required: true, MaxLen: db.MaxTitleLen, Wide: true},
	{Name: "department", Label: "Department", Type: "text", Required: true, MaxLen: db.MaxNameLen},
	{Name: "location", Label: "Location", Type: "text", Required: true, MaxLen: db.MaxNameLen},
	{Name: "employmentType", Label: "Employment type", Type: "select", Required: true, Options: options(db.EmploymentTypes)},
	{Name: "status", Label: "Status", Type: "select", Required: true, Options: vacancyStatusOptions},
	{Name: "salaryMin", Label: "Minimum salary", Type: "number", Required: true, Min: "0", Step: "0.01", Hint: "Per year, e.g. 52000"},
	{Name: "salaryMax", Label: "Maximum salary", Type: "number", Required: true, Min: "0", Step: "0.01", Hint: "Per year, at least the minimum"},
	{Name: "opensOn", Label: "Opens on", Type: "date", Required: true},
	{Name: "closesOn", Label: "Closes on", Type: "date", Hint: "Leave empty while open-ended"},
	// The field holds the person's id, as the APIs take it; the picker
	// offers every person by name, and the browser shows the name beside
	// the id it fills in. Without JavaScript it is a plain id field.
	{Name: "filledBy", Label: "Filled by", Type: "text", Complete: "off", Suggest: personOptionsURL,
		Hint: "Once the vacancy is filled: start typing a name and pick the person (the field holds their id)"},
	{Name: "description", Label: "Description", Type: "textarea", MaxLen: db.MaxDescriptionLen, Wide: true},
}

// vacancyStatusOptions are the choices of the form's status and of the
// list's filter.
var vacancyStatusOptions = options(db.VacancyStatuses)

// vacancyFormNames maps the Store's field names to the form's.
var vacancyFormNames = map[string]string{"salaryMinCents": "salaryMin", "salaryMaxCents": "salaryMax"}

// vacancyWords rewrites the API field names the Store's messages mention
// ("must not be before opensOn") into words.
var vacancyWords = strings.NewReplacer(
	"salaryMinCents", "the minimum salary",
	"salaryMaxCents", "the maximum salary",
	"opensOn", "the opening date",
	"closesOn", "the closing date",
)

// handleVacancyList shows a page of vacancies, filtered by ?status=. For the
// filter's htmx request it answers only the results block.
func handleVacancyList(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, err := parseLimit(r)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		p := vacancyListPage{Status: q.Get("status"), Limit: limit, Statuses: vacancyStatusOptions}
		page, err := store.FindVacancies(r.Context(), db.VacancyFilter{
			Status: db.VacancyStatus(p.Status), After: q.Get("after"), Limit: limit,
		})
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		p.Vacancies = page.Vacancies
		link := url.Values{}
		if p.Status != "" {
			link.Set("status", p.Status)
		}
		p.FirstURL, p.NextURL = pageLinks("/vacancies", link, limit, q.Get("after"), page.NextCursor)
		if !wantsDocument(r) && r.Header.Get("HX-Target") == "vacancy-results" {
			ui.execute(w, http.StatusOK, "vacancies", "vacancy-results", p)
			return
		}
		title := "Vacancies"
		if p.Status != "" {
			title = label(p.Status) + " vacancies"
		}
		p.Layout = layout(w, r, title, "vacancies")
		ui.page(w, r, http.StatusOK, "vacancies", p)
	})
}

// handleVacancyGet shows one vacancy and, when filled, who filled it.
func handleVacancyGet(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		v, err := store.FindVacancyByID(r.Context(), id)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		p := vacancyDetailPage{Vacancy: v}
		if v.FilledBy != nil {
			person, err := store.FindPersonByID(r.Context(), *v.FilledBy)
			switch db.ErrorCode(err) {
			case "":
				p.FilledBy = &person
			case db.ENOTFOUND:
			default:
				ui.fail(w, r, err)
				return
			}
		}
		p.Layout = layout(w, r, v.Title, "vacancies")
		ui.page(w, r, http.StatusOK, "vacancy", p)
	})
}

// handleVacancyNewForm shows the empty vacancy form.
func handleVacancyNewForm(ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vals := values{"employmentType": string(db.FullTime), "status": string(db.VacancyDraft)}
		ui.renderVacancyForm(w, r, http.StatusOK, nil, newVacancyForm(vals, nil))
	})
}

// handleVacancyCreate stores a new vacancy and shows it (303 to
// /vacancies/{id}); bad input re-renders the form with a message per field
// (422).
func handleVacancyCreate(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			ui.badForm(w, r, err)
			return
		}
		vals := readValues(r, vacancySpecs)
		in, errs := parseVacancy(vals)
		status := http.StatusUnprocessableEntity
		var problems []string
		if len(errs) == 0 {
			v, err := store.CreateVacancy(r.Context(), in)
			if err == nil {
				redirectAfterWrite(w, r, "/vacancies/"+strconv.FormatInt(v.ID, 10), "vacancy-created")
				return
			}
			fe, ok := formErrorOf(err, vacancySpecs, vacancyFormNames, vacancyWords)
			if !ok {
				ui.fail(w, r, err)
				return
			}
			errs, problems, status = fe.fields, fe.problems, fe.status
		}
		f := newVacancyForm(vals, errs)
		f.Problems = problems
		ui.renderVacancyForm(w, r, status, nil, f)
	})
}

// handleVacancyEditForm shows the form filled with the stored vacancy and its
// version.
func handleVacancyEditForm(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		v, err := store.FindVacancyByID(r.Context(), id)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		ui.renderVacancyForm(w, r, http.StatusOK, &v, editVacancyForm(v, vacancyValues(v), nil, nil))
	})
}

// handleVacancyUpdate saves the edit form if the vacancy is still at the
// version the form was read at (303 to /vacancies/{id}). A stale version
// answers 409 with the user's input kept, the values saved meanwhile shown
// beside it and the new version in the form, so that saving again is a
// deliberate overwrite.
func handleVacancyUpdate(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		if err := r.ParseForm(); err != nil {
			ui.badForm(w, r, err)
			return
		}
		vals := readValues(r, vacancySpecs)
		version := parseVersion(r)
		in, errs := parseVacancy(vals)
		stored := db.Vacancy{ID: id, Version: version}
		status := http.StatusUnprocessableEntity
		var problems []string
		var saved values
		if len(errs) == 0 {
			v, err := store.UpdateVacancy(r.Context(), id, version, vacancyPatch(in))
			if err == nil {
				redirectAfterWrite(w, r, "/vacancies/"+strconv.FormatInt(v.ID, 10), "vacancy-saved")
				return
			}
			fe, ok := formErrorOf(err, vacancySpecs, vacancyFormNames, vacancyWords)
			switch {
			case fe.stale:
				cur, err := store.FindVacancyByID(r.Context(), id)
				if err != nil {
					ui.fail(w, r, err)
					return
				}
				stored, saved, status = cur, vacancyValues(cur), http.StatusConflict
			case ok:
				errs, problems, status = fe.fields, fe.problems, fe.status
			default:
				ui.fail(w, r, err)
				return
			}
		}
		f := editVacancyForm(stored, vals, errs, saved)
		f.Problems = problems
		ui.renderVacancyForm(w, r, status, &stored, f)
	})
}

// handleVacancyDeleteForm asks before deleting a vacancy: a page naming it,
// with a button that posts to …/delete and a way back.
func handleVacancyDeleteForm(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		v, err := store.FindVacancyByID(r.Context(), id)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		to := "/vacancies/" + strconv.FormatInt(v.ID, 10)
		ui.renderDeletePage(w, r, "vacancies", deletePage{
			Crumbs:   []crumb{{"/vacancies", "Vacancies"}, {to, v.Title}},
			Heading:  "Delete vacancy",
			Question: vacancyDeleteQuestion(v),
			Action:   to + "/delete",
			Submit:   "Delete vacancy",
			Cancel:   to,
		})
	})
}

// vacancyDeleteQuestion is what the site asks before deleting v, in htmx's
// confirm dialog and on the confirmation page alike.
func vacancyDeleteQuestion(v db.Vacancy) string {
	return "Delete the vacancy “" + v.Title + "”? This cannot be undone."
}

// handleVacancyDelete removes a vacancy and goes back to the list: DELETE for
// htmx (after hx-confirm), POST …/delete from the confirmation page.
func handleVacancyDelete(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		if err := store.DeleteVacancy(r.Context(), id); err != nil {
			ui.fail(w, r, err)
			return
		}
		redirectAfterWrite(w, r, "/vacancies", "vacancy-deleted")
	})
}

func newVacancyForm(vals values, errs map[string]string) form {
	return form{
		ID: "vacancy-form", Action: "/vacancies", What: "vacancy",
		Fields: fields(vacancySpecs, vals, errs, nil), Invalid: len(errs) > 0,
		Submit: "Create vacancy", Cancel: "/vacancies",
	}
}

func editVacancyForm(v db.Vacancy, vals values, errs map[string]string, saved values) form {
	to := "/vacancies/" + strconv.FormatInt(v.ID, 10)
	return form{
		ID: "vacancy-form", Action: to, What: "vacancy", Editing: true, Version: v.Version,
		Fields: fields(vacancySpecs, vals, errs, saved), Invalid: len(errs) > 0, Conflict: saved != nil,
		Submit: "Save changes", Cancel: to,
	}
}

// renderVacancyForm renders the new (v == nil) or edit form.
func (ui *views) renderVacancyForm(w http.ResponseWriter, r *http.Request, status int, v *db.Vacancy, f form) {
	crumbs := []crumb{{"/vacancies", "Vacancies"}}
	title := "New vacancy"
	if v != nil {
		title = "Edit vacancy"
		if v.Title != "" {
			crumbs = append(crumbs, crumb{"/vacancies/" + strconv.FormatInt(v.ID, 10), v.Title})
		}
	}
	ui.renderForm(w, r, status, title, "vacancies", crumbs, f)
}

// vacancyValues are the form values of a stored vacancy.
func vacancyValues(v db.Vacancy) values {
	vals := values{
		"title": v.Title, "department": v.Department, "location": v.Location,
		"employmentType": string(v.EmploymentType), "status": string(v.Status),
		"salaryMin": amountValue(v.SalaryMinCents), "salaryMax": amountValue(v.SalaryMaxCents),
		"opensOn": v.OpensOn.String(), "closesOn": optDate(v.ClosesOn),
		"description": v.Description, "filledBy": "",
	}
	if v.FilledBy != nil {
		vals["filledBy"] = strconv.FormatInt(*v.FilledBy, 10)
	}
	return vals
}

// parseVacancy reads the form into a VacancyInput; errs holds the values that
// could not even be read (the Store judges the rest).
func parseVacancy(v values) (db.VacancyInput, map[string]string) {
	errs := map[string]string{}
	in := db.VacancyInput{
		Title: v["title"], Department: v["department"], Location: v["location"],
		EmploymentType: db.EmploymentType(v["employmentType"]),
		Status:         db.VacancyStatus(v["status"]),
		SalaryMinCents: parseAmount(v, "salaryMin", errs),
		SalaryMaxCents: parseAmount(v, "salaryMax", errs),
		OpensOn:        parseDate(v, "opensOn", errs),
		ClosesOn:       parseOptionalDate(v, "closesOn", errs),
		Description:    v["description"],
		FilledBy:       parseOptionalID(v, "filledBy", errs),
	}
	return in, errs
}

// vacancyPatch sets every field: the edit form always sends them all, and
// an empty optional field clears it.
func vacancyPatch(in db.VacancyInput) db.VacancyPatch {
	return db.VacancyPatch{
		Title: &in.Title, Department: &in.Department, Location: &in.Location,
		EmploymentType: &in.EmploymentType, SalaryMinCents: &in.SalaryMinCents,
		SalaryMaxCents: &in.SalaryMaxCents, Status: &in.Status, OpensOn: &in.OpensOn,
		ClosesOn: in.ClosesOn, ClearClosesOn: in.ClosesOn == nil,
		Description: &in.Description,
		FilledBy:    in.FilledBy, ClearFilledBy: in.FilledBy == nil,
	}
}
