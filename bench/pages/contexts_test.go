package pages_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"crudbench/bench/pages"
)

// requestCounter counts a test server's requests per path.
type requestCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *requestCounter) add(path string) {
	c.mu.Lock()
	c.n[path]++
	c.mu.Unlock()
}

// take returns the counts since the last take and starts them again.
func (c *requestCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

// TestWarmContexts: Open warms each of a warm run's browser contexts once,
// and the run's measured views — each a tab of its own in one of them —
// fetch the document alone: the script comes from the context's cache (0
// JavaScript bytes over the wire) and the server sees no warm-up request
// in the run's window. Cold views fetch the script every time.
func TestWarmContexts(t *testing.T) {
	t.Parallel()
	requests := &requestCounter{n: map[string]int{}}
	script := "const p = document.createElement('p');\np.setAttribute('elementtiming', 'data');\np.textContent = 'the data';\ndocument.body.append(p);\n" +
		"// " + strings.Repeat("a bundle's weight ", 2000) + "\n"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /app", func(w http.ResponseWriter, r *http.Request) {
		requests.add(r.URL.Path)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write([]byte(`<!doctype html><title>app</title><link rel="icon" href="data:,"><body><script src="/app.js"></script>`))
	})
	mux.HandleFunc("GET /app.js", func(w http.ResponseWriter, r *http.Request) {
		requests.add(r.URL.Path)
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Write([]byte(script))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := startBrowser(t)
	p := pages.Page{URL: srv.URL + "/app", Marker: "data"}

	for _, tt := range []struct {
		name string
		warm bool
	}{
		{"warm", true},
		{"cold", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			const contexts = 2
			requests.take()
			cs, err := b.Open(context.Background(), p, pages.Options{Warm: tt.warm}, contexts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			opened := requests.take()
			want := 0
			if tt.warm {
				want = contexts
			}
			if opened["/app"] != want || opened["/app.js"] != want {
				t.Errorf("opening %d contexts requested the page %d times and its script %d times, want %d each", contexts, opened["/app"], opened["/app.js"], want)
			}

			views := cs.Run(context.Background(), 2, 2*time.Second)
			window := requests.take()
			started, ok := 0, 0
			for i, v := range views {
				if errors.Is(v.Err, pages.ErrBusy) {
					continue
				}
				started++
				if v.Err != nil {
					t.Errorf("view %d: %v", i, v.Err)
					continue
				}
				ok++
				t.Logf("view %d: %d requests (%d cached), %d B (JS %d B), data visible %v", i, v.Requests, v.Cached, v.Bytes, v.JSBytes, v.DataVisible)
				switch {
				case tt.warm && (v.JSBytes != 0 || v.Cached == 0):
					t.Errorf("warm view %d fetched %d bytes of JavaScript, %d of its %d requests from the cache: want the script cached", i, v.JSBytes, v.Cached, v.Requests)
				case !tt.warm && (v.JSBytes <= int64(len(script)) || v.Cached != 0):
					t.Errorf("cold view %d fetched %d bytes of JavaScript (the script is %d), %d requests from the cache: want it all over the wire", i, v.JSBytes, len(script), v.Cached)
				}
			}
			if ok == 0 {
				t.Fatalf("no view of %d due painted its marker", len(views))
			}
			// The window's requests are its views' own: one document each,
			// and the script only where the cache is off.
			wantJS := started
			if tt.warm {
				wantJS = 0
			}
			if window["/app"] != started || window["/app.js"] != wantJS {
				t.Errorf("the run's window saw %d page and %d script requests from %d views started, want %d and %d", window["/app"], window["/app.js"], started, started, wantJS)
			}
		})
	}
}
