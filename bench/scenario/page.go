package scenario

import (
	"bytes"
	"fmt"
	"html"
	"strconv"
	"strings"

	"crudbench/db/seed"
)

// Markers the site puts on the rows the bench counts, as its README lists
// them. They are part of the site's contract with the bench: a page that
// renders the data some other way fails validation rather than being
// measured unchecked.
const (
	markAppointment = `class="appointment"`
	markStipend     = `class="stipend"`
	markFunding     = `class="funding"`
	markVacancy     = `class="vacancy"`
	markPerson      = `class="person"`
	// markOption starts each item of the person picker's fragment.
	markOption = `<option value="`
)

// page checks a site page: a full HTML document, not the login form, the
// rows counted by their markers, and the same data as the reference — every
// row's id and the texts a person reads (names, e-mail addresses, titles,
// payers) appear in it. read-slim's answer is instead the picker's
// fragment: <option> items, one per person, never a whole document.
func (v *Validator) page(op Op, body []byte) error {
	document := bytes.Contains(bytes.ToLower(body[:min(len(body), 512)]), []byte("<!doctype html"))
	switch {
	case op == OpReadSlim && document:
		return fmt.Errorf("a whole HTML page, want the fragment of <option> items%s", snippet(body))
	case op != OpReadSlim && !document:
		return fmt.Errorf("not a full HTML page%s", snippet(body))
	}
	if bytes.Contains(body, []byte(`name="password"`)) {
		return fmt.Errorf("got the login page")
	}
	var ref any
	if v.Ref != nil {
		ref = v.Ref.Data[op]
	}
	count := func(mark string) int { return bytes.Count(body, []byte(mark)) }
	switch op {
	case OpReadOne:
		got := [3]int{count(markAppointment), count(markStipend), count(markFunding)}
		want := [3]int{seed.ShowcaseAppointments, seed.ShowcaseAppointments * seed.ShowcaseStipends, seed.ShowcaseAppointments * seed.ShowcaseFundings}
		if got != want {
			return fmt.Errorf("the showcase page shows %d appointments, %d stipends, %d fundings; want %d, %d, %d",
				got[0], got[1], got[2], want[0], want[1], want[2])
		}
		for _, s := range []string{seed.ShowcaseFirstName, seed.ShowcaseLastName} {
			if !shows(body, s) {
				return fmt.Errorf("the showcase page does not show %q", s)
			}
		}
	case OpReadSmall, OpReadMany, OpReadSlim:
		mark := map[Op]string{OpReadSmall: markVacancy, OpReadMany: markPerson, OpReadSlim: markOption}[op]
		items, _ := ref.([]any)
		if n := count(mark); (ref != nil && n != len(items)) || n == 0 {
			return fmt.Errorf("the page lists %d rows (%s), want %d", n, mark, len(items))
		}
	}
	texts, attrs := pageValues(op, ref)
	for _, s := range texts {
		if !shows(body, s) {
			return fmt.Errorf("field parity: the page does not show %q", s)
		}
	}
	for _, a := range attrs {
		if !bytes.Contains(body, []byte(a)) {
			return fmt.Errorf("field parity: the page has no row with %s", a)
		}
	}
	return nil
}

// shows reports whether the page holds the text s as html/template writes
// it (which also escapes '+').
func shows(body []byte, s string) bool {
	esc := html.EscapeString(s)
	return bytes.Contains(body, []byte(esc)) ||
		bytes.Contains(body, []byte(strings.ReplaceAll(esc, "+", "&#43;")))
}

// pageValues lists what a page must show for the reference data of op: the
// texts a person reads, as they are (numbers and dates the site formats for
// people are left out), and the ids of its rows as the markers' attributes
// carry them.
func pageValues(op Op, data any) (texts, attrs []string) {
	add := func(m map[string]any, keys ...string) {
		for _, k := range keys {
			if s, ok := m[k].(string); ok && s != "" {
				texts = append(texts, s)
			}
		}
	}
	id := func(attr string, m map[string]any) {
		if n, ok := m["id"].(float64); ok {
			attrs = append(attrs, attr+`="`+strconv.FormatInt(int64(n), 10)+`"`)
		}
	}
	switch op {
	case OpReadOne:
		p, _ := data.(map[string]any)
		add(p, "firstName", "lastName", "email", "phone", "department")
		apps, _ := p["appointments"].([]any)
		for _, a := range apps {
			am, _ := a.(map[string]any)
			id("data-appointment-id", am)
			add(am, "positionTitle")
			for _, list := range []string{"stipends", "fundings"} {
				rows, _ := am[list].([]any)
				for _, r := range rows {
					rm, _ := r.(map[string]any)
					if list == "stipends" {
						id("data-stipend-id", rm)
					}
					payer, _ := rm["payer"].(map[string]any)
					add(payer, "name", "code")
				}
			}
		}
	case OpReadSmall:
		items, _ := data.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			id("data-vacancy-id", m)
			add(m, "title")
		}
	case OpReadMany:
		items, _ := data.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			id("data-person-id", m)
			add(m, "email")
		}
	case OpReadSlim:
		items, _ := data.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			id("value", m)
			add(m, "firstName", "lastName")
		}
	}
	return texts, attrs
}
