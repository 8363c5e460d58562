package scenario

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// sessionCookie is the site's login cookie.
const sessionCookie = "crudbench_session"

// siteDialect drives the HTMX site as a browser without JavaScript would:
// full pages, form posts answered by 303 redirects, a session cookie. The
// posts carry no Origin or Sec-Fetch-Site header, which the site's
// cross-origin protection lets through as a non-browser client.
type siteDialect struct{}

func formTarget(base, path string, form url.Values) vegeta.Target {
	return vegeta.Target{
		Method: http.MethodPost,
		URL:    base + path,
		Body:   []byte(form.Encode()),
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}},
	}
}

func (siteDialect) login(base, user, password string) vegeta.Target {
	return formTarget(base, "/login", url.Values{"username": {user}, "password": {password}})
}

func (siteDialect) session(r *vegeta.Result) (http.Header, error) {
	if err := expect(r, http.StatusSeeOther, ""); err != nil {
		return nil, err
	}
	for _, ck := range (&http.Response{Header: r.Headers}).Cookies() {
		if ck.Name == sessionCookie && ck.Value != "" {
			return http.Header{"Cookie": {(&http.Cookie{Name: ck.Name, Value: ck.Value}).String()}}, nil
		}
	}
	return nil, fmt.Errorf("no %s cookie in the answer", sessionCookie)
}

func (siteDialect) read(base string, op Op) vegeta.Target {
	path, header := readPath(op), http.Header{"Accept": {"text/html"}}
	switch op {
	case OpControl:
		path = controlPath
	case OpReadSlim:
		// The picker's fragment, requested as htmx requests it.
		path = personOptionsPath
		header.Set("HX-Request", "true")
	}
	return vegeta.Target{Method: http.MethodGet, URL: base + path, Header: header}
}

// vacancyForm is the create and edit form as the site's page submits it:
// every field, salaries in whole currency units as people type them.
func vacancyForm(v VacancyData) url.Values {
	return url.Values{
		"title":          {v.Title},
		"department":     {v.Department},
		"location":       {v.Location},
		"employmentType": {"full_time"},
		"salaryMin":      {amount(v.SalaryMinCents)},
		"salaryMax":      {amount(v.SalaryMaxCents)},
		"status":         {"draft"},
		"opensOn":        {OpensOn},
		"closesOn":       {""},
		"description":    {v.Description},
		"filledBy":       {""},
	}
}

// amount writes cents as the form's amount, e.g. 40000.00.
func amount(cents int64) string {
	return fmt.Sprintf("%d.%02d", cents/100, cents%100)
}

func (siteDialect) create(base string, v VacancyData) vegeta.Target {
	return formTarget(base, "/vacancies", vacancyForm(v))
}

func (siteDialect) update(base string, id int64, version int32, v VacancyData) vegeta.Target {
	form := vacancyForm(v)
	form.Set("version", strconv.FormatInt(int64(version), 10))
	return formTarget(base, "/vacancies/"+strconv.FormatInt(id, 10), form)
}

func (siteDialect) delete(base string, id int64) vegeta.Target {
	return formTarget(base, "/vacancies/"+strconv.FormatInt(id, 10)+"/delete", url.Values{})
}

func (siteDialect) readVacancy(base string, id int64) vegeta.Target {
	return vegeta.Target{Method: http.MethodGet, URL: base + "/vacancies/" + strconv.FormatInt(id, 10), Header: http.Header{"Accept": {"text/html"}}}
}

func (siteDialect) check(op Op, r *vegeta.Result) error {
	switch op {
	case OpCreate, OpUpdate, OpDelete:
		return expect(r, http.StatusSeeOther, "")
	case OpControl:
		return expect(r, http.StatusOK, "")
	}
	return expect(r, http.StatusOK, "text/html")
}

func (siteDialect) created(r *vegeta.Result) (int64, int32, error) {
	loc := r.Headers.Get("Location")
	u, err := url.Parse(loc)
	if err != nil {
		return 0, 0, fmt.Errorf("bad Location %q", loc)
	}
	rest, ok := strings.CutPrefix(u.Path, "/vacancies/")
	if !ok {
		return 0, 0, fmt.Errorf("create redirected to %q, not to the new vacancy", loc)
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || id <= 0 {
		return 0, 0, fmt.Errorf("create redirected to %q, not to the new vacancy", loc)
	}
	// A new row starts at version 1 (the schema's default); the redirect
	// carries no body to read it from.
	return id, 1, nil
}

// version is not read from a site's page: the contract asks a site for no
// version on it (its edit form carries one, but a site need not have one).
func (siteDialect) version(*vegeta.Result) (int32, bool, error) { return 0, false, nil }
