package main

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"crudbench/db"
	"crudbench/db/seed"
)

// TestPages gets every page as a normal request (a whole document) and as a
// boosted htmx request (the inside of <body>, with a <title> for htmx).
func TestPages(t *testing.T) {
	t.Parallel()
	forRenderers(t, testPages)
}

func testPages(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")

	tests := []struct {
		path   string
		status int
		want   []string
	}{
		{"/persons", 200, []string{"<h1>Persons</h1>", `id="person-search"`, `class="person"`, "Next page"}},
		{"/persons?q=lovelace", 200, []string{`value="lovelace"`, "Lovelace", "Ada"}},
		{"/persons?q=no-such-person-anywhere", 200, []string{"No persons match"}},
		{"/persons/1", 200, []string{seed.ShowcaseFirstName, seed.ShowcaseLastName, `class="appointment"`}},
		{"/persons/new", 200, []string{"<h1>New person</h1>", `id="person-form"`, `name="firstName"`}},
		{"/persons/1/edit", 200, []string{"<h1>Edit person</h1>", `name="version" value="1"`, `value="Lovelace"`}},
		{"/vacancies", 200, []string{"<h1>Vacancies</h1>", `id="status-filter"`, `class="vacancy"`}},
		{"/vacancies?status=open", 200, []string{`<option value="open" selected>`, `class="badge open"`}},
		{"/vacancies/1", 200, []string{`class="vacancy-title"`, "Description"}},
		{"/vacancies/new", 200, []string{"<h1>New vacancy</h1>", `id="vacancy-form"`, `name="salaryMin"`,
			`list="f-filledBy-options" hx-get="/persons/options?limit=1000" hx-trigger="focus once" hx-target="#f-filledBy-options"`,
			`<datalist id="f-filledBy-options"></datalist>`}},
		{"/vacancies/1/edit", 200, []string{"<h1>Edit vacancy</h1>", `name="version" value="1"`}},
		{"/persons/1/delete", 200, []string{"<h1>Delete person</h1>", "Delete Ada Lovelace with all appointments", `action="/persons/1/delete"`}},
		{"/vacancies/1/delete", 200, []string{"<h1>Delete vacancy</h1>", `action="/vacancies/1/delete"`}},
		{"/", 303, nil},
		{"/no/such/page", 404, []string{"Page not found", "/no/such/page"}},
		{"/persons/999999", 404, []string{"Not found", "person 999999 not found"}},
		{"/persons/abc", 404, []string{"Page not found"}},
		{"/vacancies/999999", 404, []string{"vacancy 999999 not found"}},
		{"/vacancies/999999/edit", 404, []string{"vacancy 999999 not found"}},
		{"/persons/999999/delete", 404, []string{"person 999999 not found"}},
		{"/vacancies/999999/delete", 404, []string{"vacancy 999999 not found"}},
		{"/vacancies/abc/delete", 404, []string{"Page not found"}},
		{"/persons?limit=0", 400, []string{"limit must be a whole number from 1 to 1000"}},
		{"/persons?limit=1001", 400, []string{"limit must be a whole number from 1 to 1000"}},
		{"/persons?after=not-a-cursor", 400, []string{"Bad request", "after"}},
		{"/vacancies?status=bogus", 400, []string{"status must be one of"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			full := editor.get(tt.path)
			wantStatus(t, "full", full, tt.status)
			if tt.status == http.StatusSeeOther {
				return
			}
			wantBody(t, "full", full, append([]string{"<!doctype html>", "<head>", `<body hx-boost="true"`}, tt.want...)...)
			if got := full.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
				t.Errorf("Content-Type = %q", got)
			}
			if got := full.Header.Values("Vary"); !slices.Contains(got, "HX-Request") {
				t.Errorf("Vary = %q, want HX-Request", got)
			}

			partial := editor.get(tt.path, htmxHeaders("")...)
			wantStatus(t, "partial", partial, tt.status)
			if !strings.HasPrefix(partial.Body, "<title>") {
				t.Errorf("partial does not start with <title>: %q", excerpt(partial.Body))
			}
			wantNoBody(t, "partial", partial, "<!doctype html>", "<head>", "<body")
			wantBody(t, "partial", partial, append([]string{`<main id="main">`}, tt.want...)...)

			// htmx's history restore (the back button after a cache miss)
			// needs the whole document.
			restore := editor.get(tt.path, "HX-Request", "true", "HX-History-Restore-Request", "true")
			wantBody(t, "history restore", restore, "<!doctype html>")
		})
	}
}

// TestPartials checks the fragments the active search and the status filter
// swap in: only the results block, no frame.
func TestPartials(t *testing.T) {
	t.Parallel()
	forRenderers(t, testPartials)
}

func testPartials(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")

	res := editor.get("/persons?q=Lovelace", htmxHeaders("person-results")...)
	wantStatus(t, "search", res, http.StatusOK)
	if !strings.HasPrefix(res.Body, `<div id="person-results">`) {
		t.Errorf("search partial starts %q", excerpt(res.Body))
	}
	wantNoBody(t, "search", res, "<title>", "<header", `id="person-search"`)
	wantBody(t, "search", res, `<span class="last-name">Lovelace</span>`)

	res = editor.get("/vacancies?status=draft", htmxHeaders("vacancy-results")...)
	wantStatus(t, "filter", res, http.StatusOK)
	if !strings.HasPrefix(res.Body, `<div id="vacancy-results">`) {
		t.Errorf("filter partial starts %q", excerpt(res.Body))
	}
	wantNoBody(t, "filter", res, "<title>", `class="badge open"`)

	// An error answering a fragment request replaces the body, not the
	// results block.
	res = editor.get("/vacancies?status=bogus", htmxHeaders("vacancy-results")...)
	wantStatus(t, "bad filter", res, http.StatusBadRequest)
	if res.Header.Get("HX-Retarget") != "body" {
		t.Errorf("bad filter: HX-Retarget = %q, want body", res.Header.Get("HX-Retarget"))
	}
}

// TestShowcaseDetail checks that the heavy detail page shows every
// appointment, stipend and funding, with payer names, for a fixed number of
// SQL statements.
func TestShowcaseDetail(t *testing.T) {
	t.Parallel()
	forRenderers(t, testShowcaseDetail)
}

func testShowcaseDetail(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")

	ts.queries.Store(0)
	res := editor.get("/persons/1")
	if n := ts.queries.Load(); n > 4 {
		t.Errorf("GET /persons/1 sent %d SQL statements, want at most 4", n)
	}
	wantStatus(t, "detail", res, http.StatusOK)

	want := map[string]int{
		`class="appointment"`: seed.ShowcaseAppointments,
		`class="stipend"`:     seed.ShowcaseAppointments * seed.ShowcaseStipends,
		`class="funding"`:     seed.ShowcaseAppointments * seed.ShowcaseFundings,
	}
	for marker, n := range want {
		if got := res.count(marker); got != n {
			t.Errorf("%s occurs %d times, want %d", marker, got, n)
		}
	}

	p, err := ts.store.FindPersonDetail(context.Background(), seed.ShowcaseID)
	if err != nil {
		t.Fatal(err)
	}
	wantBody(t, "detail", res,
		`<span class="first-name">Ada</span> <span class="last-name">Lovelace</span>`,
		`<dd class="employee-no">1000</dd>`,
		`data-appointment-id="`+strconv.FormatInt(p.Appointments[0].ID, 10)+`"`,
		htmlText(p.Appointments[0].Stipends[0].Payer.Name),
		htmlText(p.Appointments[0].Fundings[0].Payer.Name),
		`data-amount-cents="`+strconv.FormatInt(p.Appointments[0].Stipends[0].AmountCents, 10)+`"`,
		`datetime="`+p.CreatedAt.UTC().Format("2006-01-02T15:04:05Z07:00")+`"`,
	)
}

// htmlText is s as html/template writes it in text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

// TestLists checks the list sizes the bench relies on: the whole register at
// ?limit=1000, the default page of 50 with working cursor links, and the
// open vacancies.
func TestLists(t *testing.T) {
	t.Parallel()
	forRenderers(t, testLists)
}

func testLists(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")

	all := editor.get("/persons?limit=1000")
	wantStatus(t, "all persons", all, http.StatusOK)
	if got := all.count(`class="person"`); got != seed.DefaultPersons {
		t.Errorf("?limit=1000 shows %d persons, want %d", got, seed.DefaultPersons)
	}
	wantNoBody(t, "all persons", all, "Next page")

	// Walk the default pages via their Next links: every person once.
	seen := map[string]bool{}
	next := "/persons"
	for pages := 0; next != ""; pages++ {
		if pages > 20 {
			t.Fatal("more than 20 pages")
		}
		res := editor.get(next)
		wantStatus(t, next, res, http.StatusOK)
		ids := regexp.MustCompile(`data-person-id="(\d+)"`).FindAllStringSubmatch(res.Body, -1)
		if len(ids) > db.DefaultLimit {
			t.Fatalf("%s shows %d persons, want at most %d", next, len(ids), db.DefaultLimit)
		}
		for _, m := range ids {
			if seen[m[1]] {
				t.Fatalf("person %s shown twice", m[1])
			}
			seen[m[1]] = true
		}
		next = ""
		if m := regexp.MustCompile(`<a href="([^"]+)" rel="next">`).FindStringSubmatch(res.Body); m != nil {
			next = strings.ReplaceAll(m[1], "&amp;", "&")
		}
	}
	if len(seen) != seed.DefaultPersons {
		t.Errorf("paging showed %d persons, want %d", len(seen), seed.DefaultPersons)
	}

	open, err := ts.store.FindVacancies(context.Background(), db.VacancyFilter{Status: db.VacancyOpen})
	if err != nil {
		t.Fatal(err)
	}
	res := editor.get("/vacancies?" + url.Values{"status": {"open"}}.Encode())
	wantStatus(t, "open vacancies", res, http.StatusOK)
	if got := res.count(`class="vacancy"`); got != len(open.Vacancies) {
		t.Errorf("?status=open shows %d vacancies, want %d", got, len(open.Vacancies))
	}
	if got := res.count(`class="badge open"`); got != len(open.Vacancies) {
		t.Errorf("?status=open shows %d open badges, want %d", got, len(open.Vacancies))
	}
}

// TestEscaping stores hostile text and checks that every page shows it as
// text: html/template escapes by context, and the pages build no HTML by
// hand.
func TestEscaping(t *testing.T) {
	t.Parallel()
	forRenderers(t, testEscaping)
}

func testEscaping(t *testing.T, ts *testSite) {
	editor := ts.login(t, "editor")
	const hostile = `<script>alert("x")</script>`

	p, err := ts.store.CreatePerson(context.Background(), db.PersonInput{
		EmployeeNo: 99001, FirstName: hostile, LastName: `O'Brien" onmouseover="alert(1)`,
		Email: "hostile@example.org", Department: "<b>Dept</b>", Status: db.PersonActive, HiredOn: db.NewDate(2024, 1, 2),
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := ts.store.CreateVacancy(context.Background(), db.VacancyInput{
		Title: hostile, Department: "D", Location: "L", EmploymentType: db.FullTime,
		SalaryMinCents: 1, SalaryMaxCents: 2, Status: db.VacancyOpen, OpensOn: db.NewDate(2024, 1, 2),
		Description: "</div><img src=x onerror=alert(1)>",
	})
	if err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(p.ID, 10)
	vid := strconv.FormatInt(v.ID, 10)
	for _, path := range []string{
		"/persons/" + id, "/persons/" + id + "/edit", "/persons?q=hostile", "/persons?q=" + url.QueryEscape(hostile),
		"/vacancies/" + vid, "/vacancies/" + vid + "/edit", "/vacancies?status=open&limit=1000",
		"/persons/options?q=" + url.QueryEscape("O'Brien"),
	} {
		res := editor.get(path)
		wantStatus(t, path, res, http.StatusOK)
		wantNoBody(t, path, res, "<script>alert", "<b>Dept", `" onmouseover="alert`, "<img src=x")
		if !strings.Contains(res.Body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") &&
			!strings.Contains(res.Body, "&lt;script&gt;alert(&#34;x&#34;)&lt;\\/script&gt;") {
			t.Errorf("%s: hostile text not shown escaped\n%s", path, excerpt(res.Body))
		}
	}
}

// TestPersonOptions gets the person picker's fragment: an <option> per
// person with the id as its value and "Last, First" as its text, in the
// person list's order, the same persons as the database's list, read in
// one statement; the list's limits and a search on the names.
func TestPersonOptions(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	editor := ts.login(t, "editor")
	all, err := ts.store.FindPersons(context.Background(), db.PersonFilter{Limit: db.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	option := regexp.MustCompile(`<option value="(\d+)">([^<]*)</option>`)
	options := func(body string) []string {
		var out []string
		for _, m := range option.FindAllStringSubmatch(body, -1) {
			out = append(out, m[1]+" "+html.UnescapeString(m[2]))
		}
		return out
	}
	var want []string
	for _, p := range all.Persons {
		want = append(want, strconv.FormatInt(p.ID, 10)+" "+p.LastName+", "+p.FirstName)
	}

	for _, h := range [][]string{nil, htmxHeaders("f-filledBy-options")} {
		ts.queries.Store(0)
		res := editor.get("/persons/options?limit=1000", h...)
		wantStatus(t, "all", res, http.StatusOK)
		if n := ts.queries.Load(); n != 1 {
			t.Errorf("the fragment took %d statements, want 1", n)
		}
		if d := cmp.Diff(want, options(res.Body)); d != "" {
			t.Errorf("options differ from the database's persons (-want +got):\n%s", d)
		}
		if got := strings.Count(res.Body, "<"); got != 2*len(want) {
			t.Errorf("the fragment has %d tags, want only the %d options%s", got, len(want), excerpt(res.Body))
		}
		if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("Content-Type = %q", got)
		}
		if res.Header.Get("HX-Retarget") != "" {
			t.Error("the fragment is retargeted")
		}
	}

	if got := options(editor.get("/persons/options").Body); len(got) != db.DefaultLimit || got[0] != want[0] {
		t.Errorf("without a limit: %d options starting %q, want the first %d", len(got), got[:min(1, len(got))], db.DefaultLimit)
	}
	if got := options(editor.get("/persons/options?q=" + url.QueryEscape(" ada love ")).Body); !slices.Equal(got, []string{"1 Lovelace, Ada"}) {
		t.Errorf("q=ada love: %q, want only the showcase person", got)
	}
	if got := editor.get("/persons/options?q=no-such-person"); got.Body != "" {
		t.Errorf("q matching nobody: %q, want an empty fragment", got.Body)
	}
	for _, bad := range []string{"limit=0", "limit=1001", "limit=x", "q=" + strings.Repeat("a", db.MaxSearchLen+1)} {
		res := editor.get("/persons/options?" + bad)
		wantStatus(t, bad, res, http.StatusBadRequest)
		wantBody(t, bad, res, "Bad request")
	}
}

// TestStatic checks that the vendored htmx and the CSS are served without a
// session, cached for long with their content hash, and that nothing else
// is.
func TestStatic(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	anon := ts.client(t)
	page := anon.get("/login")
	m := regexp.MustCompile(`src="(/static/htmx-2\.0\.11\.min\.js\?v=[0-9a-f]{16})"`).FindStringSubmatch(page.Body)
	if m == nil {
		t.Fatalf("login page has no versioned htmx script:\n%s", page.Body)
	}
	res := anon.get(m[1])
	wantStatus(t, "htmx", res, http.StatusOK)
	if !strings.Contains(res.Header.Get("Content-Type"), "javascript") {
		t.Errorf("htmx Content-Type = %q", res.Header.Get("Content-Type"))
	}
	if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
		t.Errorf("htmx Cache-Control = %q", got)
	}
	wantBody(t, "htmx", res, `version:"2.0.11"`)

	css := anon.get("/static/site.css")
	wantStatus(t, "css", css, http.StatusOK)
	if got := css.Header.Get("Content-Type"); got != "text/css; charset=utf-8" {
		t.Errorf("css Content-Type = %q", got)
	}
	if got := css.Header.Get("Cache-Control"); got != "public, max-age=300" {
		t.Errorf("unversioned css Cache-Control = %q", got)
	}
	// An unknown static file is the site's own 404 page, not plain text.
	for _, path := range []string{"/static/", "/static/nope.js", "/static/../go.mod", "/static/site.css/x"} {
		res := anon.get(path)
		wantStatus(t, path, res, http.StatusNotFound)
		wantBody(t, path, res, "<!doctype html>", `<section class="error-page" data-status="404">`, "Page not found")
		if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("%s Content-Type = %q", path, got)
		}
	}
	// No page refers to another host.
	wantNoBody(t, "login", page, "http://", "https://", "//cdn")
}

// TestMethodNotAllowed checks that every 405 names the methods the address
// serves in Allow (HEAD wherever GET is), as RFC 9110 requires, on the
// site's error page; and that a method no route knows, sent to an address no
// route serves, is a 404.
func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	ts := newTestSite(t)
	anon, editor := ts.client(t), ts.login(t, "editor")

	tests := []struct {
		method, path string
		allow        string
	}{
		{"PUT", "/persons/2", "GET, HEAD, POST, DELETE"},
		{"PATCH", "/vacancies/2", "GET, HEAD, POST, DELETE"},
		{"PROPFIND", "/persons", "GET, HEAD, POST"},
		{"DELETE", "/vacancies", "GET, HEAD, POST"},
		{"PUT", "/vacancies/2/delete", "GET, HEAD, POST"},
		{"POST", "/persons/2/edit", "GET, HEAD"},
		{"OPTIONS", "/login", "GET, HEAD, POST"},
		{"PUT", "/static/site.css", "GET, HEAD"},
		{"GET", "/logout", "POST"},
		{"HEAD", "/logout", "POST"},
		{"DELETE", "/healthz", "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			for name, c := range map[string]*client{"anonymous": anon, "editor": editor} {
				res := c.do(tt.method, tt.path, nil, nil)
				wantStatus(t, name, res, http.StatusMethodNotAllowed)
				if got := res.Header.Get("Allow"); got != tt.allow {
					t.Errorf("%s: Allow = %q, want %q", name, got, tt.allow)
				}
				if tt.method == http.MethodHead {
					continue
				}
				wantBody(t, name, res, `<section class="error-page" data-status="405">`, tt.method+" cannot be used on "+tt.path)
			}
		})
	}

	for _, path := range []string{"/no/such/page", "/persons/1/nope"} {
		t.Run("PROPFIND "+path, func(t *testing.T) {
			res := editor.do("PROPFIND", path, nil, nil)
			wantStatus(t, "PROPFIND", res, http.StatusNotFound)
			wantBody(t, "PROPFIND", res, `<section class="error-page" data-status="404">`, "Page not found")
			if got := res.Header.Values("Allow"); got != nil {
				t.Errorf("Allow = %q on a 404", got)
			}
		})
	}
}
