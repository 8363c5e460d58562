package main

import (
	"context"
	"fmt"
	"io"

	"github.com/a-h/templ"
)

// Renderers the site can be started with (HTMX_RENDERER, -htmx-renderer). The default,
// "template" (html/template), evaluates the pages of resources/templates by reflection on
// every request; "templ" renders the pages the bench reads most (the person
// detail and the vacancy list) with templ components compiled to Go (the
// *.templ files here, twins of those templates), and every other page with
// html/template as the default does. Both write the same markup with the
// same contextual escaping.
const (
	rendererTemplate = "template"
	rendererTempl    = "templ"
)

// compiledPages are the pages the templ renderer compiles: per page, its
// "content" (framed by the layout as "document" or "body") and any fragment
// block a handler renders alone, under the names of the html/template
// blocks.
var compiledPages = map[string]map[string]func(data any) templ.Component{
	"person": {
		"content": func(data any) templ.Component { return personContent(data.(personDetailPage)) },
	},
	"vacancies": {
		"content":         func(data any) templ.Component { return vacanciesContent(data.(vacancyListPage)) },
		"vacancy-results": func(data any) templ.Component { return vacancyResults(data.(vacancyListPage)) },
	},
}

// compiledFor returns the compiled pages of the renderer named name: none
// for "template" (the default, also when name is empty).
func compiledFor(name string) (map[string]map[string]func(any) templ.Component, error) {
	switch name {
	case "", rendererTemplate:
		return nil, nil
	case rendererTempl:
		return compiledPages, nil
	}
	return nil, fmt.Errorf("must be %q or %q", rendererTemplate, rendererTempl)
}

// framedPage is every page's view model: each embeds Layout.
type framedPage interface{ frame() Layout }

// frame returns the layout a page's view model embeds.
func (l Layout) frame() Layout { return l }

// renderCompiled writes the block of the page name with its compiled
// component and reports whether it had one. Rendering goes into a buffer
// (see views.execute), so there is no request to cancel it.
func (v *views) renderCompiled(w io.Writer, name, block string, data any) (bool, error) {
	blocks := v.compiled[name]
	var c templ.Component
	switch content := blocks["content"]; {
	case blocks == nil:
		return false, nil
	case block == "document":
		c = document(data.(framedPage).frame(), v.static.url, content(data))
	case block == "body":
		c = body(data.(framedPage).frame(), content(data))
	case blocks[block] != nil:
		c = blocks[block](data)
	default:
		return false, nil
	}
	return true, c.Render(context.Background(), w)
}
