package main

import (
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"crudbench/apps/internal/auth"
	"crudbench/apps/internal/serve"
	"crudbench/db"
	"crudbench/resources"
)

// views holds every page's templates, parsed once at start-up from the
// embedded resources, and renders them as a full document or as the partial
// an htmx request asks for; it also answers with the error pages
// (errors.go), so a handler is given the Store and the views it renders
// with (routes.go), as the REST and GraphQL handlers are given theirs.
type views struct {
	logger *slog.Logger
	pages  map[string]*template.Template // page name -> layout + shared blocks + the page
	// compiled are the pages the renderer compiles instead (see
	// compiled.go), by page and block name; nil renders every page with
	// html/template.
	compiled map[string]map[string]func(any) templ.Component
	static   *staticFiles
}

// Layout is what the frame around every page needs. Each page's view model
// embeds it; the layout template reaches it as .Layout.
type Layout struct {
	Title   string
	Section string       // "persons" or "vacancies": marks the current navigation entry
	User    *auth.Claims // nil when nobody is signed in
	Flash   string       // a one-time notice after a redirect ("Vacancy created.")
}

// CanWrite reports whether the signed-in user may see and use edit controls.
func (l Layout) CanWrite() bool { return l.User != nil && l.User.Role.CanWrite() }

// loadViews parses the layout, the shared blocks and each page of
// resources.Templates. Every page gets its own template set so that each can
// define its "content" block. renderer names the renderer (HTMX_RENDERER,
// see compiled.go): "" is the default, html/template.
func loadViews(logger *slog.Logger, static *staticFiles, renderer string) (*views, error) {
	compiled, err := compiledFor(renderer)
	if err != nil {
		return nil, err
	}
	v := &views{
		compiled: compiled,
		logger:   logger,
		pages:    map[string]*template.Template{},
		static:   static,
	}
	funcs := template.FuncMap{
		"static":                static.url,
		"money":                 money,
		"salary":                salary,
		"date":                  func(d db.Date) string { return d.String() },
		"optDate":               optDate,
		"label":                 label,
		"number":                number,
		"timestamp":             timestamp,
		"humanTime":             humanTime,
		"deletePersonQuestion":  personDeleteQuestion,
		"deleteVacancyQuestion": vacancyDeleteQuestion,
	}
	base, err := template.New("").Funcs(funcs).ParseFS(resources.Templates, "templates/layout.html", "templates/shared.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	files, err := fs.Glob(resources.Templates, "templates/pages/*.html")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	for _, f := range files {
		t, err := template.Must(base.Clone()).ParseFS(resources.Templates, f)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		v.pages[strings.TrimSuffix(path.Base(f), ".html")] = t
	}
	return v, nil
}

// isHTMX reports whether htmx sent the request (and so wants a partial).
func isHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// wantsDocument reports whether the response must be a whole HTML document:
// every normal request, and htmx's history restore (a back button after the
// local history cache missed), which swaps in a full page.
func wantsDocument(r *http.Request) bool {
	return !isHTMX(r) || r.Header.Get("HX-History-Restore-Request") == "true"
}

// page renders the page name with data: the whole document for a normal
// request, only the inside of <body> for htmx (boosted links and forms swap
// the body). An htmx request that aimed at a smaller element (a search
// result, a form) but gets a page, such as an error, is retargeted to the
// body so that the page is not squeezed into that element.
func (v *views) page(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	block := "document"
	if !wantsDocument(r) {
		block = "body"
		if r.Header.Get("HX-Target") != "" {
			w.Header().Set("HX-Retarget", "body")
			w.Header().Set("HX-Reswap", "innerHTML show:window:top")
		}
	}
	v.execute(w, status, name, block, data)
}

// execute renders one block of the page name: "document" or "body" (see
// page), or a fragment such as the rows of a search or a form with its
// messages. It renders with serve.Respond, so a template error becomes a
// clean 500 instead of half a page.
func (v *views) execute(w http.ResponseWriter, status int, name, block string, data any) {
	t, ok := v.pages[name]
	if !ok {
		v.logger.Error("render: no such page", "page", name)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	// The same URL answers a document or a partial depending on HX-Request:
	// caches must keep them apart, and pages are per user.
	h := w.Header()
	h.Add("Vary", "HX-Request")
	h.Set("Cache-Control", "private, no-cache")
	err := serve.Respond(w, status, "text/html; charset=utf-8", func(b io.Writer) error {
		return v.render(b, t, name, block, data)
	})
	if err != nil {
		v.logger.Error("render", "page", name, "block", block, "err", err)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
	}
}

// render writes the block of the page name: compiled when the renderer
// compiles it, from the page's templates otherwise.
func (v *views) render(w io.Writer, t *template.Template, name, block string, data any) error {
	if ok, err := v.renderCompiled(w, name, block, data); ok {
		return err
	}
	return t.ExecuteTemplate(w, block, data)
}

// money writes cents as an amount with thousands separators: 5200050 ->
// "52,000.50".
func money(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	units := strconv.FormatInt(cents/100, 10)
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range units {
		if i > 0 && (len(units)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	fmt.Fprintf(&b, ".%02d", cents%100)
	return b.String()
}

// salary writes a yearly salary in cents as whole units when it has no
// cents: 5200000 -> "52,000", 5200050 -> "52,000.50".
func salary(cents int64) string {
	s := money(cents)
	return strings.TrimSuffix(s, ".00")
}

// number writes a share or an FTE without trailing zeros: 0.5 -> "0.5".
func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// timestamp writes an instant for a datetime attribute, in UTC.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// humanTime writes an instant for people, to the minute, in UTC.
func humanTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// optDate writes an optional day, "" when absent.
func optDate(d *db.Date) string {
	if d == nil {
		return ""
	}
	return d.String()
}

// label turns a stored enum value (any string type) into words:
// "on_leave" -> "On leave".
func label(v any) string {
	s := strings.ReplaceAll(fmt.Sprint(v), "_", " ")
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
