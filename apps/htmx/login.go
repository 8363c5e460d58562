package main

import (
	"errors"
	"net/http"

	"crudbench/apps/internal/auth"
	"crudbench/db"
)

// loginPage is the view model of the sign-in page.
type loginPage struct {
	Layout
	Next   string // where to go after signing in
	Notice string // why the user is here ("session expired")
	Error  string // why the last attempt failed
	Fields []field
}

var loginSpecs = []fieldSpec{
	{Name: "username", Label: "Username", Type: "text", Required: true, MaxLen: db.MaxUsernameLen, Complete: "username"},
	{Name: "password", Label: "Password", Type: "password", Required: true, Complete: "current-password"},
}

// handleLoginForm shows the sign-in form, or sends a signed-in user on. A
// rejected session cookie (expired, forged) is deleted, with a word when it
// expired.
func handleLoginForm(ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next := safeNext(r.URL.Query().Get("next"))
		if _, ok := auth.FromContext(r.Context()); ok {
			http.Redirect(w, r, next, http.StatusSeeOther)
			return
		}
		p := loginPage{Next: next}
		if err := auth.TokenError(r.Context()); err != nil {
			auth.ClearCookie(w, r)
			if errors.Is(err, auth.ErrExpiredToken) {
				p.Notice = "Your session has expired. Please sign in again."
			}
		}
		ui.renderLogin(w, r, http.StatusOK, p, values{}, nil)
	})
}

// handleLogin checks the credentials, sets the session cookie and sends the
// user to the page they wanted (303). Wrong credentials re-render the form
// with 401 and keep the username.
func handleLogin(store *db.Store, tokens *auth.Tokens, ui *views) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			ui.badForm(w, r, err)
			return
		}
		vals := readValues(r, loginSpecs)
		vals["password"] = r.PostForm.Get("password") // spaces can be part of a password
		p := loginPage{Next: safeNext(r.PostForm.Get("next"))}

		errs := map[string]string{}
		for _, f := range loginSpecs {
			if vals[f.Name] == "" {
				errs[f.Name] = "is required"
			}
		}
		if len(errs) > 0 {
			ui.renderLogin(w, r, http.StatusUnprocessableEntity, p, vals, errs)
			return
		}

		user, err := store.Authenticate(r.Context(), vals["username"], vals["password"])
		switch db.ErrorCode(err) {
		case "":
		case db.EUNAUTHORIZED, db.EINVALID:
			p.Error = "Wrong username or password."
			ui.renderLogin(w, r, http.StatusUnauthorized, p, vals, nil)
			return
		default:
			ui.fail(w, r, err)
			return
		}
		token, expires, err := tokens.Issue(user.ID, user.Username, user.Role)
		if err != nil {
			ui.fail(w, r, err)
			return
		}
		tokens.SetCookie(w, r, token, expires)
		http.Redirect(w, r, p.Next, http.StatusSeeOther)
	})
}

func (ui *views) renderLogin(w http.ResponseWriter, r *http.Request, status int, p loginPage, vals values, errs map[string]string) {
	vals["password"] = "" // never sent back
	p.Layout = layout(w, r, "Sign in", "")
	p.Fields = fields(loginSpecs, vals, errs, nil)
	if len(errs) == 0 && p.Error == "" {
		p.Fields[0].Autofocus = true
	} else if p.Error != "" {
		p.Fields[1].Autofocus = true
	}
	ui.page(w, r, status, "login", p)
}

// handleLogout deletes the session cookie and shows the sign-in page. Tokens
// are stateless, so there is nothing to revoke server-side; the cookie is gone
// and the token expires on its own.
func handleLogout() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.ClearCookie(w, r)
		setFlash(w, r, "signed-out")
		http.Redirect(w, r, "/login", http.StatusSeeOther)
	})
}
