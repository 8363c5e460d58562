package scenario

import "slices"

// The page scenarios: a front end's page viewed in a real browser
// (package pages) rather than one API request. They are not in All: an API
// scenario drives an app's contract, a page scenario views a front end
// (the site, the single-page app's builds), and the runner keeps the two
// apart.
const (
	PagePerson    = "page-person"    // the showcase person's page, its appointments painted
	PageVacancies = "page-vacancies" // the vacancy list, its rows painted
)

// Pages lists the page scenarios in report order.
var Pages = []string{PagePerson, PageVacancies}

// Every lists every scenario, API and page, in report order: what
// -scenarios all stands for.
var Every = slices.Concat(All, Pages)

// IsPage reports whether s is a page scenario.
func IsPage(s string) bool { return slices.Contains(Pages, s) }
