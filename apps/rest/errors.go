package main

import (
	"errors"
	"log/slog"
	"net/http"

	"crudbench/apps/internal/serve"
	"crudbench/db"
)

// problem is an RFC 9457 problem details object, the body of every error
// response. Fields carries per-field messages keyed by the camelCase field
// (or query parameter) name, as the store reports them.
type problem struct {
	Type     string            `json:"type"`
	Title    string            `json:"title"`
	Status   int               `json:"status"`
	Detail   string            `json:"detail,omitempty"`
	Instance string            `json:"instance,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
}

// requestError is a request this app rejects before the store sees it:
// malformed JSON, a wrong media type, a bad parameter, a missing token.
// Its detail and fields are safe to show.
type requestError struct {
	status int
	detail string
	fields map[string]string
}

func (e *requestError) Error() string { return e.detail }

func badRequest(detail string, fields map[string]string) error {
	return &requestError{status: http.StatusBadRequest, detail: detail, fields: fields}
}

// respondError is the one translator from errors to HTTP: a requestError
// keeps its status, anything else is answered from its db.ErrorOf value,
// the status by its code. Internal details go to the log (serve.LogError),
// never to the client.
//
// EINVALID is 400 on requests without a body (a bad query parameter or id)
// and 422 on requests with one: the JSON was well-formed, but a value breaks
// a rule.
func respondError(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) {
	if re, ok := errors.AsType[*requestError](err); ok {
		writeProblem(w, r, re.status, re.detail, re.fields)
		return
	}
	e := db.ErrorOf(err)
	serve.LogError(r.Context(), logger, e)
	status := http.StatusInternalServerError
	switch e.Code {
	case db.EINVALID:
		status = http.StatusUnprocessableEntity
		if r.Method == http.MethodGet || r.Method == http.MethodDelete {
			status = http.StatusBadRequest
		}
	case db.ENOTFOUND:
		status = http.StatusNotFound
	case db.ECONFLICT:
		status = http.StatusConflict
	case db.EUNAUTHORIZED:
		status = http.StatusUnauthorized
	case db.EUNAVAILABLE:
		status = http.StatusServiceUnavailable
	default:
		writeProblem(w, r, status, "", nil)
		return
	}
	writeProblem(w, r, status, e.Message, e.Fields)
}

// writeProblem writes a problem+json response. A 401 names the scheme to
// use unless the caller did (RFC 9110 requires WWW-Authenticate on it); a
// 503 suggests when to try again.
func writeProblem(w http.ResponseWriter, r *http.Request, status int, detail string, fields map[string]string) {
	h := w.Header()
	switch status {
	case http.StatusUnauthorized:
		if h.Get("WWW-Authenticate") == "" {
			h.Set("WWW-Authenticate", `Bearer realm="crudbench"`)
		}
	case http.StatusServiceUnavailable:
		h.Set("Retry-After", serve.RetryAfter)
	}
	writeJSON(w, status, "application/problem+json", problem{
		Type:     "about:blank",
		Title:    http.StatusText(status),
		Status:   status,
		Detail:   detail,
		Instance: r.URL.Path,
		Fields:   fields,
	})
}
