package main

import (
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
)

// unavailable reports whether a response failed as a whole because the
// database is away: every error is UNAVAILABLE and no field was answered.
// The transport then answers 503 with Retry-After and data null, as the other
// apps answer an outage, so that clients and load balancers see it without
// reading the body. A response with any field answered, or with any other
// error, keeps its 200: partial data is still data.
func unavailable(resp *graphql.Response) bool {
	if resp == nil || len(resp.Errors) == 0 {
		return false
	}
	for _, e := range resp.Errors {
		if e.Extensions["code"] != codeUnavailable {
			return false
		}
	}
	return len(resp.Data) == 0 || allNull(resp.Data)
}

// allNull reports whether data is null or an object whose every field is null.
func allNull(data json.RawMessage) bool {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return string(data) == "null"
	}
	for _, v := range fields {
		if string(v) != "null" {
			return false
		}
	}
	return true
}
