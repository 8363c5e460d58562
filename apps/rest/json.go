package main

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/jsonbody"
	"crudbench/apps/internal/serve"
)

// encode writes v as a JSON response with the given status.
func encode(w http.ResponseWriter, status int, v any) {
	writeJSON(w, status, "application/json", v)
}

// writeJSON encodes v with serve.Respond, so that a value that cannot be
// encoded becomes a clean 500 rather than half a body. The body ends with a
// newline.
func writeJSON(w http.ResponseWriter, status int, contentType string, v any) {
	err := serve.Respond(w, status, contentType, func(b io.Writer) error { return json.NewEncoder(b).Encode(v) })
	if err != nil {
		serve.Respond(w, http.StatusInternalServerError, "application/problem+json", func(b io.Writer) error {
			_, err := io.WriteString(b, `{"type":"about:blank","title":"Internal Server Error","status":500}`+"\n")
			return err
		})
	}
}

// decode reads a request body into a T with jsonbody.Decode, once the
// media type is application/json and the body (which the shared middleware
// caps at serve.MaxBodyBytes) has been read.
func decode[T any](r *http.Request) (T, error) {
	var v T
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return v, &httpproblem.Error{Status: http.StatusUnsupportedMediaType, Detail: "the body must be JSON: send Content-Type: application/json"}
	}
	body, err := io.ReadAll(r.Body)
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return v, httpproblem.TooLarge
	}
	if err != nil {
		return v, httpproblem.BadRequest("the body could not be read", nil)
	}
	return jsonbody.Decode[T](body)
}
