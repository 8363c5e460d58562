package serve

import (
	"net/http"
	"strconv"
	"strings"
)

// The header budget every app shares. A browser or an API client needs a few
// KiB of headers; these bounds leave room for long tokens and a full cookie
// jar while keeping what one request can make the server parse and hold
// small. A request over any of them is answered 431 before a handler runs.
const (
	// MaxHeaderBytes bounds the request line and header fields together
	// (http.Server.MaxHeaderBytes; net/http reads up to 4 KiB past it
	// before it refuses).
	MaxHeaderBytes = 64 << 10
	// MaxHeaderFields bounds the number of header fields besides Host
	// (Apache's LimitRequestFields default): inside MaxHeaderBytes,
	// hundreds of tiny fields would still fit.
	MaxHeaderFields = 100
	// MaxCookies bounds the cookies of a request, all Cookie fields
	// together. Browsers keep at most 180 cookies for a site, so none
	// reaches it; above it the request is refused rather than served
	// without its session, which net/http drops when a header holds more
	// than 3000 cookies.
	MaxCookies = 200
)

// limitHeaders answers 431 to a request with more header fields than
// MaxHeaderFields or more cookies than MaxCookies. Their size is bounded
// already (MaxHeaderBytes) when net/http reads them; this bounds their count,
// before any handler parses them.
func limitHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fields, cookies := 0, 0
		for name, values := range r.Header {
			fields += len(values)
			if name == "Cookie" {
				for _, v := range values {
					cookies += strings.Count(v, ";") + 1
				}
			}
		}
		switch {
		case fields > MaxHeaderFields:
			refuseHeaders(w, "more than "+strconv.Itoa(MaxHeaderFields)+" header fields")
		case cookies > MaxCookies:
			refuseHeaders(w, "more than "+strconv.Itoa(MaxCookies)+" cookies")
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// refuseHeaders writes the 431, in plain text like net/http's own answer to
// a header over MaxHeaderBytes: no app's handler has run, so none of the
// apps' error formats applies.
func refuseHeaders(w http.ResponseWriter, why string) {
	http.Error(w, "431 Request Header Fields Too Large: "+why, http.StatusRequestHeaderFieldsTooLarge)
}
