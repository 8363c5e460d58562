package main

import (
	"errors"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"crudbench/db"
)

// fieldSpec describes one input of a form: what the browser shows and checks.
// The server checks everything again (through the Store), so the browser's
// checks are only a convenience.
type fieldSpec struct {
	Name      string // form name; also the camelCase name the APIs use, except where formNames renames
	Label     string
	Type      string // text, email, tel, number, date, select, textarea, password
	Required  bool
	MaxLen    int
	Min, Step string // number inputs
	Options   []option
	Hint      string
	Wide      bool   // spans the whole form width
	Complete  string // autocomplete token
	// Suggest is the address of the <option> items of a <datalist> the
	// input offers, loaded by htmx the first time the input gets the
	// focus (not with the form: most edits never open the picker); ""
	// for none.
	Suggest string
}

// option is one choice of a select.
type option struct{ Value, Label string }

// field is a fieldSpec filled for one rendering.
type field struct {
	fieldSpec
	Value     string
	Error     string // what is wrong, to follow the label: "is required"
	Saved     string // after a stale edit: the value saved meanwhile…
	ShowSaved bool   // …shown when it differs from Value
	Autofocus bool   // the first field with an error gets the focus
}

// form is the view model of a create or edit form (block "form" in
// shared.html), also what a 422 or 409 re-render swaps in.
type form struct {
	ID       string // element id: the htmx target of its own re-render
	Action   string
	Editing  bool  // an edit form carries the version it was read at
	Version  int32 // hidden field: the optimistic-concurrency check
	Fields   []field
	Problems []string // errors that belong to no field
	Invalid  bool     // some field has an error
	Conflict bool     // the record changed since the form was loaded
	What     string   // "person" or "vacancy", for messages
	Submit   string
	Cancel   string
}

// formPage is the page around a form.
type formPage struct {
	Layout
	Crumbs  []crumb
	Heading string
	Form    form
}

// deletePage is the view model of the page that asks before a delete. It is
// how a user without JavaScript deletes, and where the Delete control leads
// whenever htmx has not taken the control over (scripts off, or a click on
// content htmx has not processed yet), so a click never deletes unasked.
type deletePage struct {
	Layout
	Crumbs   []crumb
	Heading  string
	Question string // names the record, as htmx's confirm dialog does
	Action   string // the POST …/delete that the confirm button sends
	Submit   string
	Cancel   string // back to the record
}

// renderDeletePage shows the confirmation page p in the navigation section.
func (ui *views) renderDeletePage(w http.ResponseWriter, r *http.Request, section string, p deletePage) {
	p.Layout = layout(w, r, p.Heading, section)
	ui.page(w, r, http.StatusOK, "delete", p)
}

// crumb is one step of the breadcrumb trail above a heading.
type crumb struct{ URL, Label string }

// values are submitted (or stored) form values by field name, as text.
type values map[string]string

// readValues reads the named fields of a posted form. Single-line values are
// trimmed: stray spaces around a name are never what the user meant.
func readValues(r *http.Request, specs []fieldSpec) values {
	v := values{}
	for _, f := range specs {
		s := r.PostForm.Get(f.Name)
		if f.Type != "textarea" {
			s = strings.TrimSpace(s)
		}
		v[f.Name] = s
	}
	return v
}

// fields fills specs with values, errors and, after a conflict, the values
// saved meanwhile.
func fields(specs []fieldSpec, vals values, errs map[string]string, saved values) []field {
	out := make([]field, len(specs))
	focused := false
	for i, spec := range specs {
		f := field{fieldSpec: spec, Value: vals[spec.Name], Error: errs[spec.Name]}
		if saved != nil {
			f.Saved = saved[spec.Name]
			f.ShowSaved = f.Saved != f.Value
		}
		if f.Error != "" && !focused {
			f.Autofocus, focused = true, true
		}
		out[i] = f
	}
	return out
}

// formError is what a form shows of a write's error.
type formError struct {
	status   int               // 409 for a conflict (stale version, duplicate value), 422 otherwise
	stale    bool              // the record changed since the form was read
	fields   map[string]string // messages per form field
	problems []string          // messages for the form as a whole
}

// formErrorOf reads a write's error (not nil) once, as db.ErrorOf gives it,
// for re-rendering the form. ok is false when the error is not about the
// input: a page must explain it (fail). The Store names fields as the APIs do
// (salaryMinCents); rename maps those names to this form's, and words, when
// not nil, rewrites API field names inside the messages. Messages for fields
// the form does not have become form-level problems.
func formErrorOf(err error, specs []fieldSpec, rename map[string]string, words *strings.Replacer) (fe formError, ok bool) {
	e := db.ErrorOf(err)
	switch {
	case e.Code == db.EINVALID:
		fe.status = http.StatusUnprocessableEntity
	case e.Code == db.ECONFLICT && len(e.Fields) > 0:
		fe.status = http.StatusConflict
		_, fe.stale = e.Fields["version"]
	default:
		return formError{}, false
	}
	fe.fields = map[string]string{}
	for k, msg := range e.Fields {
		if words != nil {
			msg = words.Replace(msg)
		}
		name := k
		if n, ok := rename[k]; ok {
			name = n
		}
		if slices.ContainsFunc(specs, func(f fieldSpec) bool { return f.Name == name }) {
			fe.fields[name] = msg
		} else {
			fe.problems = append(fe.problems, k+" "+msg)
		}
	}
	slices.Sort(fe.problems)
	if len(fe.fields) == 0 && len(fe.problems) == 0 {
		fe.problems = append(fe.problems, e.Message)
	}
	return fe, true
}

// renderForm answers with the form: only the form element when htmx asked
// for it (the form targets itself), the whole page otherwise.
func (ui *views) renderForm(w http.ResponseWriter, r *http.Request, status int, title, section string, crumbs []crumb, f form) {
	if !wantsDocument(r) && r.Header.Get("HX-Target") == f.ID {
		if f.Conflict {
			// The conflict message heads the form: bring it into view.
			w.Header().Set("HX-Reswap", "outerHTML show:top")
		}
		ui.execute(w, status, "form", "form", f)
		return
	}
	ui.page(w, r, status, "form", formPage{
		Layout:  layout(w, r, title, section),
		Crumbs:  crumbs,
		Heading: title,
		Form:    f,
	})
}

// The parsers below read one form value each and record a message for the
// field when it cannot be read. Empty values become zero values for the Store
// to judge ("is required"), so the messages come from one place.

func parseInt32(v values, name string, errs map[string]string) int32 {
	s := v[name]
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 32)
	switch {
	case errors.Is(err, strconv.ErrRange):
		errs[name] = "must be at most " + strconv.Itoa(math.MaxInt32)
	case err != nil:
		errs[name] = "must be a whole number"
	}
	return int32(n)
}

func parseOptionalID(v values, name string, errs map[string]string) *int64 {
	s := v[name]
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		errs[name] = "must be the id of a person (a positive whole number)"
		return nil
	}
	return &n
}

func parseDate(v values, name string, errs map[string]string) db.Date {
	s := v[name]
	if s == "" {
		return db.Date{}
	}
	d, err := db.ParseDate(s)
	if err != nil {
		errs[name] = "must be a date like 2025-01-31"
	}
	return d
}

func parseOptionalDate(v values, name string, errs map[string]string) *db.Date {
	if v[name] == "" {
		return nil
	}
	d := parseDate(v, name, errs)
	return &d
}

// amountPattern is a non-negative amount with at most two decimals, as a
// number input sends it: "52000", "52000.5", "52000.50".
var amountPattern = regexp.MustCompile(`^[0-9]{1,10}(\.[0-9]{1,2})?$`)

// maxAmount is the largest salary the Store accepts, in whole units.
const maxAmount = db.MaxSalaryCents / 100

// parseAmount reads a required money amount in whole units with optional
// cents and returns cents.
func parseAmount(v values, name string, errs map[string]string) int64 {
	s := v[name]
	switch {
	case s == "":
		errs[name] = "is required"
		return 0
	case !amountPattern.MatchString(s):
		errs[name] = "must be an amount like 52000 or 52000.50"
		return 0
	}
	units, frac, _ := strings.Cut(s, ".")
	u, _ := strconv.ParseInt(units, 10, 64)
	frac = (frac + "00")[:2]
	c, _ := strconv.ParseInt(frac, 10, 64)
	if u > maxAmount || (u == maxAmount && c > 0) {
		errs[name] = "must be at most " + salary(db.MaxSalaryCents)
		return 0
	}
	return u*100 + c
}

// amountValue writes cents the way parseAmount reads them back.
func amountValue(cents int64) string {
	if cents%100 == 0 {
		return strconv.FormatInt(cents/100, 10)
	}
	return strconv.FormatInt(cents/100, 10) + "." + strconv.FormatInt(cents%100+100, 10)[1:]
}

// parseVersion reads the hidden version field. A missing or forged one
// becomes 0, which no stored record has, so the Store reports a conflict and
// the user sees the current values instead of an error page.
func parseVersion(r *http.Request) int32 {
	n, err := strconv.ParseInt(r.PostForm.Get("version"), 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// parseID reads the {id} of a path; false for anything but a positive number.
func parseID(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

// parseLimit reads the page size of a list from the limit query parameter;
// the rule is the data's (db.ParsePageLimit), and fail answers a bad size
// with the error page. Not asked for, it is 0: the Store's default, which
// the pager's links leave out.
func parseLimit(r *http.Request) (int, error) {
	return db.ParsePageLimit("limit", r.URL.Query().Get("limit"))
}
