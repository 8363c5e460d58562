package pages

import "fmt"

// The markers every crudbench front end paints once a page's data is
// visible: a line after the person page's appointments and after the
// vacancy list's rows (apps/htmx, apps/web).
const (
	MarkerAppointments = "appointments"
	MarkerVacancies    = "vacancies"
)

// PersonPage is the person page of the crudbench front end at base (the
// htmx site, web-rest, web-graphql): person id's detail, its appointments
// counted, signed in with username and password at base's /login.
func PersonPage(base string, id int64, username, password string) Page {
	return Page{
		URL:    fmt.Sprintf("%s/persons/%d", base, id),
		Marker: MarkerAppointments,
		Count:  "section.appointment",
		SignIn: &SignIn{URL: base + "/login", Username: username, Password: password},
	}
}

// VacanciesPage is the vacancy list of the crudbench front end at base,
// its rows counted, signed in as PersonPage is.
func VacanciesPage(base, username, password string) Page {
	return Page{
		URL:    base + "/vacancies",
		Marker: MarkerVacancies,
		Count:  "tr.vacancy",
		SignIn: &SignIn{URL: base + "/login", Username: username, Password: password},
	}
}
