package main

import (
	"context"

	"crudbench/apps/internal/auth"
	"crudbench/db"
)

// access is who may run an operation.
type access int

const (
	open   access = iota // anyone: login, healthz
	reader               // a valid token
	editor               // a valid token of the editor role
)

// handler runs one operation: it answers a status and a value to encode
// as JSON (nil for no body), or an error for the translator (errors.go).
type handler func(ctx context.Context, req *request) (status int, body any, err error)

// operation is one entry of the surface.
type operation struct {
	access access
	// withBody is set for the operations that take a JSON body; a value
	// the Store refuses (EINVALID) is then 422, as REST answers a body it
	// could read but not accept, and 400 otherwise.
	withBody bool
	handle   handler
}

// operations is the whole surface of the app, by the message type that
// names each operation: REST's routes, one type each. Parameters that
// REST takes in the path or the query travel as message headers of the
// same names (params.go); bodies are REST's.
func operations(store *db.Store, tokens *auth.Tokens) map[string]operation {
	return map[string]operation{
		"healthz": {access: open, handle: handleHealthz()},
		"login":   {access: open, withBody: true, handle: handleLogin(store, tokens)},

		"person.list":   {access: reader, handle: handlePersonList(store)},
		"person.get":    {access: reader, handle: handlePersonGet(store)},
		"person.create": {access: editor, withBody: true, handle: handlePersonCreate(store)},
		"person.update": {access: editor, withBody: true, handle: handlePersonUpdate(store)},
		"person.delete": {access: editor, handle: handlePersonDelete(store)},

		"vacancy.list":   {access: reader, handle: handleVacancyList(store)},
		"vacancy.get":    {access: reader, handle: handleVacancyGet(store)},
		"vacancy.create": {access: editor, withBody: true, handle: handleVacancyCreate(store)},
		"vacancy.update": {access: editor, withBody: true, handle: handleVacancyUpdate(store)},
		"vacancy.delete": {access: editor, handle: handleVacancyDelete(store)},
	}
}

// handleHealthz answers without the database: the kind's control, the
// floor of a request through the broker and the app.
func handleHealthz() handler {
	return func(context.Context, *request) (int, any, error) {
		return 200, map[string]string{"status": "ok"}, nil
	}
}
