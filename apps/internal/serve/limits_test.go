package serve_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"crudbench/apps/internal/serve"
)

// fields returns n header fields "X-Field-i: v".
func fields(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("X-Field-" + strconv.Itoa(i) + ": v\r\n")
	}
	return b.String()
}

// cookies returns a Cookie field of n cookies, the last one named last.
func cookies(n int, last string) string {
	var b strings.Builder
	b.WriteString("Cookie: ")
	for i := range n - 1 {
		b.WriteString("c" + strconv.Itoa(i) + "=v; ")
	}
	b.WriteString(last + "=v\r\n")
	return b.String()
}

// The header budget: up to its bounds a request is served, past any of
// them it is answered 431 before the handler runs.
func TestHeaderBudget(t *testing.T) {
	url, seen := echoServer(t)
	for _, tt := range []struct {
		name    string
		headers string
		want    int
	}{
		{"fields at the bound", fields(serve.MaxHeaderFields), http.StatusOK},
		{"fields past the bound", fields(serve.MaxHeaderFields + 1), http.StatusRequestHeaderFieldsTooLarge},
		{"cookies at the bound", cookies(serve.MaxCookies, "session"), http.StatusOK},
		{"cookies past the bound", cookies(serve.MaxCookies+1, "session"), http.StatusRequestHeaderFieldsTooLarge},
		{"cookies past the bound in two fields", cookies(serve.MaxCookies/2, "a") + cookies(serve.MaxCookies/2+1, "session"), http.StatusRequestHeaderFieldsTooLarge},
		// net/http serves a session cookie after 3000 others as if it
		// were not there; such a request never reaches a handler.
		{"a session after 3000 cookies", cookies(3001, "session"), http.StatusRequestHeaderFieldsTooLarge},
		{"bytes inside the budget", "X-Big: " + strings.Repeat("a", serve.MaxHeaderBytes-1024) + "\r\n", http.StatusOK},
		{"bytes past the budget", "X-Big: " + strings.Repeat("a", serve.MaxHeaderBytes+4096) + "\r\n", http.StatusRequestHeaderFieldsTooLarge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := len(seen.list())
			c := dialRaw(t, url)
			c.send("GET /" + strings.ReplaceAll(tt.name, " ", "-") + " HTTP/1.1\r\nHost: x\r\n" + tt.headers + "\r\n")
			resp, body := c.answer()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d %.100q, want %d", resp.StatusCode, body, tt.want)
			}
			if served := len(seen.list()) > before; served != (tt.want == http.StatusOK) {
				t.Errorf("handler ran: %v, want %v", served, tt.want == http.StatusOK)
			}
		})
	}
}
