package main

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"crudbench/db"
	"crudbench/db/dbtest"
)

// TestCompiledParity serves one database with both renderers and checks that
// every block the templ renderer compiles is the same HTML as the
// html/template one: the same elements, attributes and text, in the same
// order, for a viewer and an editor, as a document, as htmx's body and as
// the fragment a handler renders alone. Only whitespace between tags may
// differ.
func TestCompiledParity(t *testing.T) {
	t.Parallel()
	dbURL := dbtest.Seeded(t)
	def := startSiteWith(t, dbURL, db.Options{}, db.DefaultTimeout, rendererTemplate)
	tuned := startSiteWith(t, dbURL, db.Options{}, db.DefaultTimeout, rendererTempl)
	requests := []struct {
		name string
		h    hdr
	}{
		{"document", nil},
		{"body", htmxHeaders("")},
		{"history restore", hdr{"HX-Request", "true", "HX-History-Restore-Request", "true"}},
		{"filter", htmxHeaders("vacancy-results")},
	}
	for _, user := range []string{"viewer", "editor"} {
		// One sign-in per site and user: the subtests share its cookie.
		defUser, tunedUser := def.login(t, user), tuned.login(t, user)
		for _, path := range []string{
			"/persons/1", "/persons/2", "/vacancies", "/vacancies?status=open", "/vacancies?status=filled",
			"/vacancies?limit=7", "/vacancies?status=closed&limit=3&after=", "/vacancies?status=draft&limit=1000",
		} {
			for _, req := range requests {
				t.Run(user+" "+path+" "+req.name, func(t *testing.T) {
					want := (&client{t: t, base: def.URL, http: defUser.http}).get(path, req.h...)
					got := (&client{t: t, base: tuned.URL, http: tunedUser.http}).get(path, req.h...)
					wantStatus(t, "html/template", want, 200)
					wantStatus(t, "templ", got, 200)
					if d := tokenDiff(htmlTokens(t, want.Body), htmlTokens(t, got.Body)); d != "" {
						t.Errorf("templ differs from html/template: %s", d)
					}
				})
			}
		}
	}
}

// htmlTokens reads an HTML document or fragment as the tokens a browser's
// tokenizer sees: tags with their attributes (values unescaped) and text
// with every run of whitespace made one space; whitespace alone between two
// tags is left out.
func htmlTokens(t *testing.T, body string) []string {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(body))
	var toks []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return toks
		case html.TextToken:
			raw := string(z.Text())
			text := strings.Join(strings.Fields(raw), " ")
			if text == "" {
				continue
			}
			if strings.TrimLeft(raw, " \t\n") != raw {
				text = " " + text
			}
			if strings.TrimRight(raw, " \t\n") != raw {
				text += " "
			}
			toks = append(toks, "text "+text)
		default:
			tok := z.Token()
			var b strings.Builder
			fmt.Fprintf(&b, "%s %s", tt, tok.Data)
			for _, a := range tok.Attr {
				fmt.Fprintf(&b, " %s=%q", a.Key, a.Val)
			}
			toks = append(toks, b.String())
		}
	}
}

// tokenDiff describes the first difference of two token lists, "" when
// they are the same.
func tokenDiff(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("token %d:\nhtml/template: %q\ntempl:         %q\nbefore: %q", i, w, g, want[max(0, i-3):i])
		}
	}
	return ""
}
