package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// operationName finds the name of a GraphQL document's operation.
var operationName = regexp.MustCompile(`^\s*(?:query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)`)

// RequestLabel names a request the way a failure should show it to the
// person who has to fix the server: method, path and query (unescaped:
// a tRPC query's input reads as the JSON it is), and for a GraphQL
// document its operation name (every GraphQL request goes to the same
// path, so the path alone would not say which one failed). The host and
// the bench's operation label are left out.
func RequestLabel(t vegeta.Target) string {
	path := t.URL
	if u, err := url.Parse(t.URL); err == nil {
		path = u.RequestURI()
		if q, err := url.QueryUnescape(u.RawQuery); err == nil && q != u.RawQuery {
			path = u.EscapedPath() + "?" + q
		}
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

// expect checks the status and media type of a response.
func expect(r *vegeta.Result, status int, mediaType string) error {
	if int(r.Code) != status {
		return fmt.Errorf("status %d, want %d%s", r.Code, status, snippet(r.Body))
	}
	if mediaType == "" {
		return nil
	}
	if got := contentType(r); got != mediaType {
		return fmt.Errorf("content type %q, want %s", got, mediaType)
	}
	return nil
}

// contentType is the media type of r's Content-Type, lower-case and
// without parameters. It runs on every response of a load, so it only cuts
// and trims (no allocation for a lower-case header) where
// mime.ParseMediaType would also parse the parameters into a map.
func contentType(r *vegeta.Result) string {
	mt, _, _ := strings.Cut(r.Headers.Get("Content-Type"), ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// snippet quotes the start of a body for an error message.
func snippet(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	const max = 120
	if len(body) > max {
		body = append(body[:max:max], "…"...)
	}
	return fmt.Sprintf(": %q", body)
}

// jsonHeader is the header of a request with a JSON body.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}
}
