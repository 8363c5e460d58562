package main

import (
	"net/http"
	"strconv"
	"strings"

	"crudbench/apps/internal/httpproblem"
	"crudbench/apps/internal/jsonbody"
)

// setETag names the version of a single resource, so that a client can send
// it back as If-Match instead of a "version" field.
func setETag(w http.ResponseWriter, version int32) {
	w.Header().Set("ETag", `"`+strconv.FormatInt(int64(version), 10)+`"`)
}

// versionOf returns the version an update is based on: the body's
// "version", else the If-Match header's ETag. Neither is 428 (the update
// would otherwise overwrite blindly); both, when they differ, is 400.
// Whether the version is still current is the store's business (409).
func versionOf(r *http.Request, body jsonbody.Optional[int32]) (int32, error) {
	header := strings.TrimSpace(r.Header.Get("If-Match"))
	var fromHeader int32
	if header != "" {
		n, ok := parseETag(header)
		if !ok {
			return 0, httpproblem.BadRequest(`If-Match must be one ETag as this API sends it, like "3"`, nil)
		}
		fromHeader = n
	}
	inBody := body.Set && !body.Null
	switch {
	case inBody && header != "" && body.Value != fromHeader:
		return 0, httpproblem.BadRequest("the body's version and If-Match disagree", map[string]string{"version": "does not match If-Match"})
	case inBody:
		return body.Value, nil
	case header != "":
		return fromHeader, nil
	}
	return 0, &httpproblem.Error{
		Status: http.StatusPreconditionRequired,
		Detail: `an update must name the version it is based on: send "version" in the body or an If-Match header`,
		Fields: map[string]string{"version": "is required"},
	}
}

// parseETag reads a strong ETag of the form "3".
func parseETag(s string) (int32, bool) {
	inner, opened := strings.CutPrefix(s, `"`)
	inner, closed := strings.CutSuffix(inner, `"`)
	n, err := strconv.ParseInt(inner, 10, 32)
	return int32(n), opened && closed && err == nil
}
