package scenario

import (
	"encoding/json"
	"net/url"
	"regexp"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// operationName finds the name of a GraphQL document's operation.
var operationName = regexp.MustCompile(`^\s*(?:query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)`)

// RequestLabel names a request the way a failure should show it to the
// person who has to fix the server: method, path and query, and for a
// GraphQL document its operation name (every GraphQL request goes to the
// same path, so the path alone would not say which one failed). The host
// and the bench's operation label are left out.
func RequestLabel(t vegeta.Target) string {
	path := t.URL
	if u, err := url.Parse(t.URL); err == nil {
		path = u.RequestURI()
	}
	label := t.Method + " " + path
	var doc struct {
		Query string `json:"query"`
	}
	if json.Unmarshal(t.Body, &doc) == nil {
		if m := operationName.FindStringSubmatch(doc.Query); m != nil {
			label += " (" + m[1] + ")"
		}
	}
	return label
}
