package main

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"crudbench/db"
)

// personListPage is the view model of /persons (block "person-results" is
// what the active search swaps).
type personListPage struct {
	Layout
	Q        string
	Limit    int // 0: the default page size
	Persons  []db.Person
	FirstURL string // "" on the first page
	NextURL  string // "" on the last page
}

// personDetailPage is the view model of /persons/{id}: the person and every
// appointment with its stipends and fundings, read in one Store call.
type personDetailPage struct {
	Layout
	Person db.PersonDetail
}

// personSpecs are the fields of the person form, named like the APIs'.
var personSpecs = []fieldSpec{
	{Name: "firstName", Label: "First name", Type: "text", Required: true, MaxLen: db.MaxNameLen, Complete: "off"},
	{Name: "lastName", Label: "Last name", Type: "text", Required: true, MaxLen: db.MaxNameLen, Complete: "off"},
	{Name: "employeeNo", Label: "Employee no.", Type: "number", Required: true, Min: "1", Step: "1"},
	{Name: "email", Label: "Email", Type: "email", Required: true, MaxLen: db.MaxEmailLen, Complete: "off"},
	{Name: "phone", Label: "Phone", Type: "tel", MaxLen: db.MaxPhoneLen, Complete: "off"},
	{Name: "department", Label: "Department", Type: "text", Required: true, MaxLen: db.MaxNameLen},
	{Name: "status", Label: "Status", Type: "select", Required: true, Options: options(db.PersonStatuses)},
	{Name: "hiredOn", Label: "Hired on", Type: "date", Required: true},
}

func options[T ~string](vs []T) []option {
	out := make([]option, len(vs))
	for i, v := range vs {
		out[i] = option{Value: string(v), Label: label(v)}
	}
	return out
}

// handlePersonList shows a page of persons, filtered by ?q=, paged by ?after=
// and sized by ?limit= (up to 1000: the whole register). For the active search
// it answers only the results block.
func handlePersonList(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, err := parseLimit(r)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		p := personListPage{Q: strings.TrimSpace(q.Get("q")), Limit: limit}
		page, err := store.FindPersons(r.Context(), db.PersonFilter{Search: p.Q, After: q.Get("after"), Limit: limit})
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		p.Persons = page.Persons
		link := url.Values{}
		if p.Q != "" {
			link.Set("q", p.Q)
		}
		p.FirstURL, p.NextURL = pageLinks("/persons", link, limit, q.Get("after"), page.NextCursor)
		if !wantsDocument(r) && r.Header.Get("HX-Target") == "person-results" {
			ui.execute(w, http.StatusOK, "persons", "person-results", p)
			return
		}
		p.Layout = layout(w, r, "Persons", "persons")
		ui.page(w, r, http.StatusOK, "persons", p)
	})
}

// personOptionsURL is what the vacancy form's person picker loads: the
// whole register (up to the 1000 a list may hold), for the browser to
// filter as the user types.
var personOptionsURL = "/persons/options?limit=" + strconv.Itoa(db.MaxLimit)

// handlePersonOptions answers the person picker's fragment: an <option>
// per person (id and name only), filtered by ?q= on the names and sized by
// ?limit= (the list's rule: 50 by default, up to 1000), in the person
// list's order. It is a fragment for htmx to swap into a <datalist>, not a
// page, whoever asks: nothing navigates to it. It reads through
// FindPersonNames, which selects only those three columns.
func handlePersonOptions(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit, err := parseLimit(r)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		names, err := store.FindPersonNames(r.Context(), db.PersonNameFilter{Search: strings.TrimSpace(r.URL.Query().Get("q")), Limit: limit})
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		ui.execute(w, http.StatusOK, "form", "person-options", names)
	})
}

// pageLinks returns the pager's links of the list at path: to the first
// page unless this one is it (after is ""), and to the next page when there
// is one (next, the Store's cursor, is not ""). link holds the list's filter;
// the page size is kept unless it is the default (limit 0).
func pageLinks(path string, link url.Values, limit int, after, next string) (firstURL, nextURL string) {
	if limit != 0 {
		link.Set("limit", strconv.Itoa(limit))
	}
	at := func() string {
		if len(link) == 0 {
			return path
		}
		return path + "?" + link.Encode()
	}
	if after != "" {
		firstURL = at()
	}
	if next != "" {
		link.Set("after", next)
		nextURL = at()
	}
	return firstURL, nextURL
}

// handlePersonGet shows one person with all appointments, stipends and
// fundings: a fixed number of SQL statements however many there are.
func handlePersonGet(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		p, err := store.FindPersonDetail(r.Context(), id)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		ui.page(w, r, http.StatusOK, "person", personDetailPage{
			Layout: layout(w, r, p.FirstName+" "+p.LastName, "persons"),
			Person: p,
		})
	})
}

// handlePersonNewForm shows the empty person form.
func handlePersonNewForm(ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vals := values{"status": string(db.PersonActive)}
		ui.renderPersonForm(w, r, http.StatusOK, nil, newPersonForm(vals, nil, nil))
	})
}

// handlePersonCreate stores a new person and shows it; bad input re-renders
// the form with a message per field (422, or 409 for a duplicate).
func handlePersonCreate(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			ui.badForm(w, r, err)
			return
		}
		vals := readValues(r, personSpecs)
		in, errs := parsePerson(vals)
		status := http.StatusUnprocessableEntity
		var problems []string
		if len(errs) == 0 {
			p, err := store.CreatePerson(r.Context(), in)
			if err == nil {
				redirectAfterWrite(w, r, "/persons/"+strconv.FormatInt(p.ID, 10), "person-created")
				return
			}
			fe, ok := formErrorOf(err, personSpecs, nil, nil)
			if !ok {
				ui.fail(w, r, err)
				return
			}
			errs, problems, status = fe.fields, fe.problems, fe.status
		}
		f := newPersonForm(vals, errs, nil)
		f.Problems = problems
		ui.renderPersonForm(w, r, status, nil, f)
	})
}

// handlePersonEditForm shows the form filled with the stored person and its
// version.
func handlePersonEditForm(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		p, err := store.FindPersonByID(r.Context(), id)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		ui.renderPersonForm(w, r, http.StatusOK, &p, editPersonForm(p, personValues(p), nil, nil))
	})
}

// handlePersonUpdate saves the edit form if the person is still at the version
// the form was read at. Otherwise (409) the form comes back with the user's
// input, the values saved meanwhile and the new version, so that saving again
// is a deliberate overwrite.
func handlePersonUpdate(store *db.Store, ui *views) http.Handler {
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
		vals := readValues(r, personSpecs)
		version := parseVersion(r)
		in, errs := parsePerson(vals)
		stored := db.Person{ID: id, Version: version}
		status := http.StatusUnprocessableEntity
		var problems []string
		var saved values
		if len(errs) == 0 {
			p, err := store.UpdatePerson(r.Context(), id, version, personPatch(in))
			if err == nil {
				redirectAfterWrite(w, r, "/persons/"+strconv.FormatInt(p.ID, 10), "person-saved")
				return
			}
			fe, ok := formErrorOf(err, personSpecs, nil, nil)
			switch {
			case fe.stale:
				cur, err := store.FindPersonByID(r.Context(), id)
				if err != nil {
					ui.fail(w, r, err)
					return
				}
				stored, saved, status = cur, personValues(cur), http.StatusConflict
			case ok:
				errs, problems, status = fe.fields, fe.problems, fe.status
			default:
				ui.fail(w, r, err)
				return
			}
		}
		f := editPersonForm(stored, vals, errs, saved)
		f.Problems = problems
		ui.renderPersonForm(w, r, status, &stored, f)
	})
}

// handlePersonDeleteForm asks before deleting a person: a page naming them,
// with a button that posts to …/delete and a way back.
func handlePersonDeleteForm(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		p, err := store.FindPersonByID(r.Context(), id)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		to := "/persons/" + strconv.FormatInt(p.ID, 10)
		ui.renderDeletePage(w, r, "persons", deletePage{
			Crumbs:   []crumb{{"/persons", "Persons"}, {to, p.FirstName + " " + p.LastName}},
			Heading:  "Delete person",
			Question: personDeleteQuestion(p),
			Action:   to + "/delete",
			Submit:   "Delete person",
			Cancel:   to,
		})
	})
}

// personDeleteQuestion is what the site asks before deleting p, in htmx's
// confirm dialog and on the confirmation page alike.
func personDeleteQuestion(p db.Person) string {
	return "Delete " + p.FirstName + " " + p.LastName + " with all appointments, stipends and fundings? This cannot be undone."
}

// handlePersonDelete removes a person with their appointments and goes back to
// the list. It serves both DELETE (htmx, after hx-confirm) and POST …/delete
// (from the confirmation page).
func handlePersonDelete(store *db.Store, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := parseID(chi.URLParam(r, "id"))
		if !ok {
			ui.notFound(w, r)
			return
		}
		if err := store.DeletePerson(r.Context(), id); err != nil {
			ui.fail(w, r, err)
			return
		}
		redirectAfterWrite(w, r, "/persons", "person-deleted")
	})
}

func newPersonForm(vals values, errs map[string]string, saved values) form {
	return form{
		ID: "person-form", Action: "/persons", What: "person",
		Fields: fields(personSpecs, vals, errs, saved), Invalid: len(errs) > 0,
		Submit: "Create person", Cancel: "/persons",
	}
}

func editPersonForm(p db.Person, vals values, errs map[string]string, saved values) form {
	to := "/persons/" + strconv.FormatInt(p.ID, 10)
	return form{
		ID: "person-form", Action: to, What: "person", Editing: true, Version: p.Version,
		Fields: fields(personSpecs, vals, errs, saved), Invalid: len(errs) > 0, Conflict: saved != nil,
		Submit: "Save changes", Cancel: to,
	}
}

// renderPersonForm renders the new (p == nil) or edit form.
func (ui *views) renderPersonForm(w http.ResponseWriter, r *http.Request, status int, p *db.Person, f form) {
	crumbs := []crumb{{"/persons", "Persons"}}
	title := "New person"
	if p != nil {
		title = "Edit person"
		if p.FirstName != "" {
			crumbs = append(crumbs, crumb{"/persons/" + strconv.FormatInt(p.ID, 10), p.FirstName + " " + p.LastName})
		}
	}
	ui.renderForm(w, r, status, title, "persons", crumbs, f)
}

// personValues are the form values of a stored person.
func personValues(p db.Person) values {
	return values{
		"firstName": p.FirstName, "lastName": p.LastName,
		"employeeNo": strconv.FormatInt(int64(p.EmployeeNo), 10),
		"email":      p.Email, "phone": p.Phone, "department": p.Department,
		"status": string(p.Status), "hiredOn": p.HiredOn.String(),
	}
}

// parsePerson reads the form into a PersonInput; errs holds the values that
// could not even be read (the Store judges the rest).
func parsePerson(v values) (db.PersonInput, map[string]string) {
	errs := map[string]string{}
	in := db.PersonInput{
		EmployeeNo: parseInt32(v, "employeeNo", errs),
		FirstName:  v["firstName"], LastName: v["lastName"],
		Email: v["email"], Phone: v["phone"], Department: v["department"],
		Status:  db.PersonStatus(v["status"]),
		HiredOn: parseDate(v, "hiredOn", errs),
	}
	return in, errs
}

// personPatch sets every field: the edit form always sends them all.
func personPatch(in db.PersonInput) db.PersonPatch {
	return db.PersonPatch{
		EmployeeNo: &in.EmployeeNo, FirstName: &in.FirstName, LastName: &in.LastName,
		Email: &in.Email, Phone: &in.Phone, Department: &in.Department,
		Status: &in.Status, HiredOn: &in.HiredOn,
	}
}
