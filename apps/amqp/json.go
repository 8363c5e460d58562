package main

import (
	"mime"
	"net/http"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/jsonbody"
)

// decode reads a request body into a T with jsonbody.Decode, as the REST
// app does, once the content type is application/json; the body is at
// most serve.MaxBodyBytes, which Handle checks first.
func decode[T any](req *request) (T, error) {
	var v T
	mediaType, _, err := mime.ParseMediaType(req.contentType)
	if err != nil || mediaType != "application/json" {
		return v, &httpproblem.Error{Status: http.StatusUnsupportedMediaType, Detail: "the body must be JSON: send the content type application/json"}
	}
	return jsonbody.Decode[T](req.body)
}
