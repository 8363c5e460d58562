package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Scenario names.
const (
	ReadOne   = "read-one"   // the showcase person with every nested row
	ReadSmall = "read-small" // the open vacancies
	ReadMany  = "read-many"  // every person (limit 1000)
	ReadSlim  = "read-slim"  // every person's id and name, as a picker asks for them
	Write     = "write"      // create, update and delete vacancies
	Mixed     = "mixed"      // a weighted mix of the four above
	Control   = "control"    // GET /healthz: the framework's floor
)

// Profile names.
const (
	Light  = "light"
	Medium = "medium"
	High   = "high"
)

// All lists every scenario in report order.
var All = []string{ReadOne, ReadSmall, ReadMany, ReadSlim, Write, Mixed, Control}

// Core lists the scenarios run when none are named: the three reads that
// differ most between the API styles. read-slim is left out: it is the
// question of one study (does asking for less win?) rather than a shape
// every register has, and it would add a full list per kind to the
// default run; -scenarios read-slim or all runs it.
var Core = []string{ReadOne, ReadSmall, ReadMany}

// Profiles lists every profile in increasing load.
var Profiles = []string{Light, Medium, High}

// Rates are the target request rates (requests per second) of every
// profile and scenario, and the page scenarios' views per second
// (pages.go). They reproduce the reference study: read-many is
// capped low because each response carries every person. read-slim runs at
// read-many's rates: for the REST kind it is read-many's very request, so
// only at those rates does every kind hold the target, and the comparison
// is bytes and CPU per request at equal load rather than a held rate
// against a queue. How many more requests a slim answer serves is what
// -capacity measures. The page scenarios' rates are what one headless
// Chromium on a 2-core machine's runner side holds in a few browser
// contexts: a view is a sign-in and one or two navigations, about a second
// of a context's time.
var Rates = map[string]map[string]float64{
	Light:  {ReadOne: 100, ReadSmall: 100, ReadMany: 20, ReadSlim: 20, Write: 20, Mixed: 100, Control: 100, PagePerson: 1, PageVacancies: 1},
	Medium: {ReadOne: 400, ReadSmall: 400, ReadMany: 40, ReadSlim: 40, Write: 50, Mixed: 400, Control: 400, PagePerson: 2, PageVacancies: 2},
	High:   {ReadOne: 1200, ReadSmall: 1200, ReadMany: 20, ReadSlim: 20, Write: 100, Mixed: 1200, Control: 1200, PagePerson: 4, PageVacancies: 4},
}

// Weight is a scenario's share of the mixed scenario.
type Weight struct {
	Scenario string
	Percent  int
}

// MixWeights is the mixed scenario: mostly detail pages and short lists,
// some writes, rarely the full list — the shape of a typical staff register.
// The percentages add up to 100.
var MixWeights = []Weight{
	{ReadOne, 50},
	{ReadSmall, 30},
	{ReadMany, 5},
	{Write, 15},
}

// ParseList splits a comma-separated flag value and checks every item
// against known. "all" stands for every known item. The result keeps the
// order of known, without duplicates.
func ParseList(what, value string, known []string) ([]string, error) {
	var picked []string
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
			continue
		case item == "all":
			picked = append(picked, known...)
		case slices.Contains(known, item):
			picked = append(picked, item)
		default:
			return nil, fmt.Errorf("unknown %s %q (known: %s, or all)", what, item, strings.Join(known, ", "))
		}
	}
	if len(picked) == 0 {
		return nil, fmt.Errorf("no %s given", what)
	}
	var out []string
	for _, k := range known {
		if slices.Contains(picked, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// RateTable returns the rates of the given profiles and scenarios with the
// overrides applied. An override key is a scenario ("read-one", every
// profile) or a profile and a scenario ("high.read-one"); the latter wins.
func RateTable(profiles, scenarios []string, overrides map[string]float64) (map[string]map[string]float64, error) {
	for key, rate := range overrides {
		profile, scenario, scoped := strings.Cut(key, ".")
		if !scoped {
			profile, scenario = "", key
		}
		if !slices.Contains(Every, scenario) || (scoped && !slices.Contains(Profiles, profile)) {
			return nil, fmt.Errorf("rate override %q: want scenario=N or profile.scenario=N", key)
		}
		if !(rate > 0) {
			return nil, fmt.Errorf("rate override %q: rate must be above zero", key)
		}
	}
	table := make(map[string]map[string]float64, len(profiles))
	for _, p := range profiles {
		base, ok := Rates[p]
		if !ok {
			return nil, fmt.Errorf("unknown profile %q", p)
		}
		table[p] = make(map[string]float64, len(scenarios))
		for _, s := range scenarios {
			rate, ok := base[s]
			if !ok {
				return nil, fmt.Errorf("unknown scenario %q", s)
			}
			if r, ok := overrides[s]; ok {
				rate = r
			}
			if r, ok := overrides[p+"."+s]; ok {
				rate = r
			}
			table[p][s] = rate
		}
	}
	return table, nil
}

// ParseRates reads rate overrides "scenario=N,profile.scenario=N".
func ParseRates(value string) (map[string]float64, error) {
	out := map[string]float64{}
	for item := range strings.SplitSeq(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, num, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("rate %q: want scenario=N", item)
		}
		rate, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil {
			return nil, fmt.Errorf("rate %q: %v", item, err)
		}
		out[strings.TrimSpace(key)] = rate
	}
	return out, nil
}
