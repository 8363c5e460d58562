package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"crudbench/apps/internal/auth"
)

// requireSession lets signed-in requests through. Others are sent to the
// login page, which returns them here afterwards: a 303 for a normal request,
// HX-Redirect for htmx (a redirected XHR would swap the login page into
// whatever element asked).
func requireSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := auth.FromContext(r.Context()); ok {
			next.ServeHTTP(w, r)
			return
		}
		to := "/login"
		if back := returnPath(r); back != "" && back != "/" {
			to += "?" + url.Values{"next": {back}}.Encode()
		}
		if isHTMX(r) {
			w.Header().Set("HX-Redirect", to)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	})
}

// returnPath is the page to come back to after signing in: the requested
// page for a GET, else the page htmx says the user is on; "" when unknown.
func returnPath(r *http.Request) string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.URL.RequestURI()
	}
	if u, err := url.Parse(r.Header.Get("HX-Current-URL")); err == nil && u.Host == r.Host {
		return u.RequestURI()
	}
	return ""
}

// safeNext keeps a post-login destination on this site: a local absolute
// path, never "//host" or "/\host" (both lead elsewhere in browsers).
func safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(next, "/") ||
		strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/persons"
	}
	return next
}

// requireEditor refuses writes (and the forms leading to them) to viewers,
// with ui's page.
func requireEditor(ui *views) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if c, ok := auth.FromContext(r.Context()); !ok || !c.Role.CanWrite() {
				ui.forbidden(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// layout returns the frame data of a page: the signed-in user and the
// one-time notice left by the previous redirect.
func layout(w http.ResponseWriter, r *http.Request, title, section string) Layout {
	l := Layout{Title: title, Section: section, Flash: takeFlash(w, r)}
	if c, ok := auth.FromContext(r.Context()); ok {
		l.User = &c
	}
	return l
}

// flashCookie carries a notice across a redirect ("Vacancy created."). It
// holds a code from flashMessages, never user text, so it cannot inject
// anything into the page that shows it.
const flashCookie = "crudbench_flash"

var flashMessages = map[string]string{
	"person-created":  "Person created.",
	"person-saved":    "Changes saved.",
	"person-deleted":  "Person deleted.",
	"vacancy-created": "Vacancy created.",
	"vacancy-saved":   "Changes saved.",
	"vacancy-deleted": "Vacancy deleted.",
	"signed-out":      "You are signed out.",
}

func setFlash(w http.ResponseWriter, r *http.Request, code string) {
	http.SetCookie(w, &http.Cookie{
		Name: flashCookie, Value: code, Path: "/", MaxAge: 60,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
}

// takeFlash returns the pending notice, if any, and deletes it.
func takeFlash(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(flashCookie)
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{
		Name: flashCookie, Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
	return flashMessages[c.Value]
}

// redirectAfterWrite sends the browser to the page to show after a
// successful write, with a notice. A normal form post gets 303 (POST ->
// redirect -> GET, so a reload does not post again); htmx gets HX-Location,
// which loads the page into the body and pushes its URL.
func redirectAfterWrite(w http.ResponseWriter, r *http.Request, to, flash string) {
	setFlash(w, r, flash)
	if isHTMX(r) {
		loc, _ := json.Marshal(struct {
			Path   string `json:"path"`
			Target string `json:"target"`
			Swap   string `json:"swap"`
		}{to, "body", "innerHTML show:window:top"})
		w.Header().Set("HX-Location", string(loc))
		w.WriteHeader(http.StatusOK)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}
