package pages_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"crudbench/bench/pages"
)

// TestSession: a view with a Session starts signed in — its cookie sent
// with the page's request (HttpOnly, so the page's script cannot see it)
// and its sessionStorage item there before the page's own script runs —
// and the text it shows is checked (View.Shows); without one the page is
// signed out.
func TestSession(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /page", func(w http.ResponseWriter, r *http.Request) {
		who := "nobody"
		if c, err := r.Cookie("sid"); err == nil && c.Value == "s3cret" {
			who = "cookie"
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>session</title><link rel="icon" href="data:,">
<script>
const p = document.createElement('p');
p.setAttribute('elementtiming', 'data');
p.textContent = '` + who + ` token ' + (sessionStorage.getItem('app.token') || 'none') + (document.cookie.includes('sid=') ? ' visible' : '') + '.';
document.addEventListener('DOMContentLoaded', () => document.body.append(p));
</script>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := startBrowser(t)

	for _, tt := range []struct {
		name    string
		session *pages.Session
		text    string
	}{
		{"cookie and storage", &pages.Session{Cookies: map[string]string{"sid": "s3cret"}, Storage: map[string]string{"app.token": "t0k"}}, "cookie token t0k."},
		{"none", nil, "nobody token none."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, warm := range []bool{false, true} {
				v := b.View(context.Background(), pages.Page{URL: srv.URL + "/page", Marker: "data", Session: tt.session, Text: tt.text}, pages.Options{Warm: warm})
				if v.Err != nil {
					t.Fatalf("warm %v: %v", warm, v.Err)
				}
				if !v.Shows {
					t.Errorf("warm %v: the page did not show %q", warm, tt.text)
				}
			}
		})
	}
	v := b.View(context.Background(), pages.Page{URL: srv.URL + "/page", Marker: "data", Text: "token t0k"}, pages.Options{})
	if v.Err != nil || v.Shows {
		t.Errorf("a view without the session shows %q: %v, err %v", "token t0k", v.Shows, v.Err)
	}
}
