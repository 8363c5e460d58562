package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"crudbench/db"
)

// TestVacancyCycle drives the write cycle the bench runs, without
// JavaScript: create (303 to the new page), update with the version read,
// delete (303 to the list), each visible on the next page.
func TestVacancyCycle(t *testing.T) {
	t.Parallel()
	forRenderers(t, testVacancyCycle)
}

func testVacancyCycle(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")

	res := editor.post("/vacancies", vacancyForm("Benchmark engineer"))
	wantStatus(t, "create", res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	m := regexp.MustCompile(`^/vacancies/(\d+)$`).FindStringSubmatch(loc)
	if m == nil {
		t.Fatalf("create: Location %q, want /vacancies/{id}", loc)
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)

	res = editor.get(loc)
	wantStatus(t, "show", res, http.StatusOK)
	wantBody(t, "show", res, "Vacancy created.", `<span class="vacancy-title">Benchmark engineer</span>`,
		`data-salary-min-cents="5200000" data-salary-max-cents="6100050"`, "52,000 – 61,000.50", "2030-03-31", "Build the\nbenchmark.")
	wantNoBody(t, "show again", editor.get(loc), "Vacancy created.")

	res = editor.get(loc + "/edit")
	wantBody(t, "edit form", res, `value="61000.50"`, `value="Benchmark engineer"`)
	version := res.hiddenVersion(t)
	form := vacancyForm("Senior benchmark engineer")
	form.Set("version", version)
	form.Set("closesOn", "")
	form.Set("filledBy", "1")
	res = editor.post(loc, form)
	wantStatus(t, "update", res, http.StatusSeeOther)
	if res.Header.Get("Location") != loc {
		t.Errorf("update: Location %q, want %q", res.Header.Get("Location"), loc)
	}
	v, err := ts.store.FindVacancyByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if v.Title != "Senior benchmark engineer" || v.Version != 2 || v.ClosesOn != nil || v.FilledBy == nil || *v.FilledBy != 1 {
		t.Errorf("after update: %+v", v)
	}
	wantBody(t, "show updated", editor.get(loc), "Changes saved.", "Senior benchmark engineer", "open-ended", `<a href="/persons/1" data-person-id="1">Ada Lovelace</a>`)

	res = editor.post(loc+"/delete", nil)
	wantStatus(t, "delete", res, http.StatusSeeOther)
	if res.Header.Get("Location") != "/vacancies" {
		t.Errorf("delete: Location %q, want /vacancies", res.Header.Get("Location"))
	}
	wantBody(t, "list after delete", editor.get("/vacancies"), "Vacancy deleted.")
	wantStatus(t, "show deleted", editor.get(loc), http.StatusNotFound)
	wantStatus(t, "delete again", editor.post(loc+"/delete", nil), http.StatusNotFound)
}

// TestDeleteAsksFirst checks that deleting always asks first: a record's
// Delete control is a link to a page that names the record (htmx turns the
// same link into a DELETE after its confirm dialog), opening that page
// changes nothing, and only its button, a POST, deletes.
func TestDeleteAsksFirst(t *testing.T) {
	t.Parallel()
	forRenderers(t, testDeleteAsksFirst)
}

func testDeleteAsksFirst(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")
	ctx := context.Background()
	vacancy, err := ts.store.FindVacancyByID(ctx, 4)
	if err != nil {
		t.Fatal(err)
	}
	person, err := ts.store.FindPersonByID(ctx, 4)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, record, list string
		question           string
		exists             func() error
	}{
		{
			name: "vacancy", record: "/vacancies/4", list: "/vacancies",
			question: "Delete the vacancy “" + vacancy.Title + "”? This cannot be undone.",
			exists:   func() error { _, err := ts.store.FindVacancyByID(ctx, 4); return err },
		},
		{
			name: "person", record: "/persons/4", list: "/persons",
			question: "Delete " + person.FirstName + " " + person.LastName + " with all appointments, stipends and fundings? This cannot be undone.",
			exists:   func() error { _, err := ts.store.FindPersonByID(ctx, 4); return err },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			question := htmlText(tt.question)
			detail := editor.get(tt.record)
			wantStatus(t, "detail", detail, http.StatusOK)
			wantBody(t, "detail", detail, `<a class="button danger" href="`+tt.record+`/delete" hx-delete="`+tt.record+`" hx-target="body"`,
				`hx-confirm="`+question+`">Delete</a>`)
			// A form that posts …/delete would delete on a click htmx has
			// not taken over yet.
			wantNoBody(t, "detail", detail, `action="`+tt.record+`/delete"`)

			for _, h := range []hdr{nil, htmxHeaders("")} {
				page := editor.get(tt.record+"/delete", h...)
				wantStatus(t, "confirmation page", page, http.StatusOK)
				wantBody(t, "confirmation page", page, `<p class="question">`+question+`</p>`,
					`<form class="confirm-delete" method="post" action="`+tt.record+`/delete">`,
					`<a class="button" href="`+tt.record+`">Cancel</a>`)
			}
			if err := tt.exists(); err != nil {
				t.Fatalf("after opening the confirmation page: %v", err)
			}

			res := editor.post(tt.record+"/delete", url.Values{})
			wantStatus(t, "confirm", res, http.StatusSeeOther)
			if got := res.Header.Get("Location"); got != tt.list {
				t.Errorf("confirm: Location %q, want %s", got, tt.list)
			}
			if err := tt.exists(); db.ErrorCode(err) != db.ENOTFOUND {
				t.Errorf("after confirming: %v, want not found", err)
			}
			res = editor.get(tt.record + "/delete")
			wantStatus(t, "confirmation page of the deleted record", res, http.StatusNotFound)
			wantBody(t, "confirmation page of the deleted record", res, `data-status="404"`)
		})
	}
}

// TestVacancyCycleHTMX drives the same cycle as htmx does: the form posts to
// itself, a 422 swaps the form alone, success answers HX-Location, delete
// uses DELETE.
func TestVacancyCycleHTMX(t *testing.T) {
	t.Parallel()
	forRenderers(t, testVacancyCycleHTMX)
}

func testVacancyCycleHTMX(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")
	asForm := htmxHeaders("vacancy-form")

	bad := vacancyForm("Broken")
	bad.Set("closesOn", "2030-01-01")
	res := editor.post("/vacancies", bad, asForm...)
	wantStatus(t, "invalid", res, http.StatusUnprocessableEntity)
	if !strings.HasPrefix(res.Body, `<form id="vacancy-form"`) {
		t.Fatalf("invalid: not the form fragment:\n%s", excerpt(res.Body))
	}
	wantBody(t, "invalid", res, "Closes on must not be before the opening date.", `value="Broken"`, `value="2030-01-01"`, `aria-invalid="true"`)

	res = editor.post("/vacancies", vacancyForm("Fixed"), asForm...)
	wantStatus(t, "create", res, http.StatusOK)
	to := hxLocation(t, res)
	if !regexp.MustCompile(`^/vacancies/\d+$`).MatchString(to) {
		t.Fatalf("create: HX-Location path %q", to)
	}
	// htmx then loads the page into the body.
	page := editor.get(to, htmxHeaders("")...)
	wantBody(t, "page after create", page, "<title>Fixed · crudbench</title>", "Vacancy created.")

	form := vacancyForm("Fixed and edited")
	form.Set("version", "1")
	res = editor.post(to, form, asForm...)
	wantStatus(t, "update", res, http.StatusOK)
	if got := hxLocation(t, res); got != to {
		t.Errorf("update: HX-Location %q, want %q", got, to)
	}

	res = editor.do(http.MethodDelete, to, nil, htmxHeaders(""))
	wantStatus(t, "delete", res, http.StatusOK)
	if got := hxLocation(t, res); got != "/vacancies" {
		t.Errorf("delete: HX-Location %q, want /vacancies", got)
	}
	wantStatus(t, "deleted", editor.get(to), http.StatusNotFound)
}

// hxLocation returns the path of the HX-Location header.
func hxLocation(t *testing.T, res response) string {
	t.Helper()
	var loc struct {
		Path, Target string
	}
	if err := json.Unmarshal([]byte(res.Header.Get("HX-Location")), &loc); err != nil || loc.Target != "body" {
		t.Fatalf("HX-Location %q: %v", res.Header.Get("HX-Location"), err)
	}
	return loc.Path
}

// TestVacancyValidation sends bad forms: each comes back 422 with the
// message next to its field and the user's input kept, and nothing is
// stored.
func TestVacancyValidation(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	editor := ts.login(t, "editor")
	before := vacancyCount(t, ts)

	tests := []struct {
		field, value string
		want         string
	}{
		{"title", "", "Title is required."},
		{"title", "   ", "Title is required."},
		{"title", strings.Repeat("t", 201), "Title must be at most 200 characters."},
		{"title", "bad\x00byte", "Title must not contain control characters."},
		{"location", "", "Location is required."},
		{"employmentType", "slave", "Employment type must be one of full_time, part_time, contract."},
		{"status", "bogus", "Status must be one of draft, open, closed, filled."},
		{"salaryMin", "", "Minimum salary is required."},
		{"salaryMin", "abc", "Minimum salary must be an amount like 52000 or 52000.50."},
		{"salaryMin", "-5", "Minimum salary must be an amount like 52000 or 52000.50."},
		{"salaryMin", "1.234", "Minimum salary must be an amount like 52000 or 52000.50."},
		{"salaryMax", "1000000001", "Maximum salary must be at most 1,000,000,000."},
		{"salaryMax", "100", "Maximum salary must not be less than the minimum salary."},
		{"opensOn", "", "Opens on is required."},
		{"opensOn", "2030-02-30", "Opens on must be a date like 2025-01-31."},
		{"opensOn", "1066-10-14", "Opens on must be a year between 1900 and 2200."},
		{"closesOn", "yesterday", "Closes on must be a date like 2025-01-31."},
		{"closesOn", "2029-12-31", "Closes on must not be before the opening date."},
		{"filledBy", "-3", "Filled by must be the id of a person"},
		{"filledBy", "999999", "Filled by is not the id of a person."},
		{"description", strings.Repeat("d", 10001), "Description must be at most 10000 characters."},
	}
	for _, tt := range tests {
		t.Run(tt.field+"="+strconv.Quote(truncate(tt.value)), func(t *testing.T) {
			form := vacancyForm("Validation " + tt.field)
			form.Set(tt.field, tt.value)
			res := editor.post("/vacancies", form)
			wantStatus(t, "create", res, http.StatusUnprocessableEntity)
			wantBody(t, "create", res, tt.want, `id="f-`+tt.field+`-error"`, "Please correct the marked fields.")
			if tt.field != "title" {
				wantBody(t, "create", res, `value="Validation `+tt.field+`"`)
			}
		})
	}
	if after := vacancyCount(t, ts); after != before {
		t.Errorf("bad forms changed the number of vacancies from %d to %d", before, after)
	}
}

func truncate(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}

func vacancyCount(t *testing.T, ts *testSite) int {
	t.Helper()
	page, err := ts.store.FindVacancies(context.Background(), db.VacancyFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return len(page.Vacancies)
}

// TestStaleVacancy edits a vacancy from two "browsers": the second save,
// based on the old version, is refused with 409, keeps its input, shows the
// values saved meanwhile and carries the new version, so saving again
// overwrites on purpose.
func TestStaleVacancy(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	alice, bob := ts.login(t, "editor"), ts.login(t, "editor")

	aliceForm := alice.get("/vacancies/1/edit")
	bobForm := bob.get("/vacancies/1/edit")
	if aliceForm.hiddenVersion(t) != "1" || bobForm.hiddenVersion(t) != "1" {
		t.Fatal("both forms should be at version 1")
	}

	form := vacancyForm("Alice's title")
	form.Set("version", "1")
	wantStatus(t, "alice saves", alice.post("/vacancies/1", form), http.StatusSeeOther)

	form = vacancyForm("Bob's title")
	form.Set("version", "1")
	for _, h := range []hdr{nil, htmxHeaders("vacancy-form")} {
		res := bob.post("/vacancies/1", form, h...)
		wantStatus(t, "bob saves", res, http.StatusConflict)
		wantBody(t, "bob saves", res,
			"Someone else changed this vacancy while you were editing it.",
			`value="Bob&#39;s title"`,
			`Saved meanwhile: <span class="saved-value">Alice&#39;s title</span>`,
			`name="version" value="2"`)
	}
	v, _ := ts.store.FindVacancyByID(context.Background(), 1)
	if v.Title != "Alice's title" || v.Version != 2 {
		t.Fatalf("after the stale save: %q version %d, want Alice's at 2", v.Title, v.Version)
	}

	// Forged versions are conflicts too, never an overwrite or an error page.
	for _, forged := range []string{"", "0", "99", "-1", "abc", "99999999999"} {
		f := vacancyForm("Forged")
		f.Set("version", forged)
		wantStatus(t, "version "+forged, bob.post("/vacancies/1", f), http.StatusConflict)
	}

	form.Set("version", "2")
	wantStatus(t, "bob saves again", bob.post("/vacancies/1", form), http.StatusSeeOther)
	v, _ = ts.store.FindVacancyByID(context.Background(), 1)
	if v.Title != "Bob's title" || v.Version != 3 {
		t.Errorf("after the deliberate overwrite: %q version %d", v.Title, v.Version)
	}

	// Saving a vacancy deleted meanwhile says so.
	if err := ts.store.DeleteVacancy(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	form.Set("version", "3")
	res := bob.post("/vacancies/1", form)
	wantStatus(t, "save deleted", res, http.StatusNotFound)
	wantBody(t, "save deleted", res, "vacancy 1 not found")
}

// TestPersonCycle creates, edits and deletes a person, with a duplicate
// email (409), a stale edit (409) and validation messages (422) on the way.
func TestPersonCycle(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	editor := ts.login(t, "editor")

	res := editor.post("/persons", personForm("Grace", "Hopper", "grace@example.org", "99000"))
	wantStatus(t, "create", res, http.StatusSeeOther)
	loc := res.Header.Get("Location")
	wantBody(t, "show", editor.get(loc), "Person created.", `<span class="first-name">Grace</span>`, "&#43;49 30 1234", "No appointments.")

	res = editor.post("/persons", personForm("Grace", "Again", "grace@example.org", "99001"))
	wantStatus(t, "duplicate email", res, http.StatusConflict)
	wantBody(t, "duplicate email", res, "Email is already used by another person.")

	res = editor.post("/persons", personForm("", "X", "not-an-email", "zero"), htmxHeaders("person-form")...)
	wantStatus(t, "invalid", res, http.StatusUnprocessableEntity)
	if !strings.HasPrefix(res.Body, `<form id="person-form"`) {
		t.Fatalf("invalid: not the form fragment:\n%s", excerpt(res.Body))
	}
	wantBody(t, "invalid", res, "Employee no. must be a whole number.")
	res = editor.post("/persons", personForm("A", "B", "ab@example.org", "99999999999"))
	wantBody(t, "too large", res, "Employee no. must be at most 2147483647.")
	res = editor.post("/persons", personForm("", "X", "not-an-email", "5"))
	wantBody(t, "invalid", res, "First name is required.", "Email must be a valid email address like name@example.org.")

	form := personForm("Grace", "Hopper", "grace.hopper@example.org", "99000")
	form.Set("version", "1")
	form.Set("status", "on_leave")
	wantStatus(t, "update", editor.post(loc, form), http.StatusSeeOther)
	wantBody(t, "show updated", editor.get(loc), "grace.hopper@example.org", `class="badge on_leave">On leave<`)

	res = editor.post(loc, form) // still version 1
	wantStatus(t, "stale", res, http.StatusConflict)
	wantBody(t, "stale", res, "Someone else changed this person", `name="version" value="2"`)

	res = editor.do(http.MethodDelete, loc, nil, htmxHeaders(""))
	wantStatus(t, "delete", res, http.StatusOK)
	if got := hxLocation(t, res); got != "/persons" {
		t.Errorf("delete: HX-Location %q", got)
	}
	wantStatus(t, "deleted", editor.get(loc), http.StatusNotFound)

	// Deleting the showcase person takes its appointments along.
	wantStatus(t, "delete showcase", editor.post("/persons/1/delete", url.Values{}), http.StatusSeeOther)
	if _, err := ts.store.FindPersonDetail(context.Background(), 1); db.ErrorCode(err) != db.ENOTFOUND {
		t.Errorf("showcase after delete: %v", err)
	}
}
