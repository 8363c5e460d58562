package pages_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"crudbench/bench/pages"
)

// startBrowser starts Chromium for a test, or fails it saying what to
// install: page tests never skip.
func startBrowser(t *testing.T) *pages.Browser {
	t.Helper()
	b, err := pages.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestMarkerTiming holds the marker's time to the browser's: a page that
// paints its marker 300 ms after its script starts reads at least 300 ms,
// and a page whose marker never appears, or that is still loading when the
// view's time is up, is a failed view, not a fast one.
func TestMarkerTiming(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /late", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>late</title><link rel="icon" href="data:,"><p>Loading…</p>
<script>setTimeout(() => {
  const p = document.createElement('p');
  p.setAttribute('elementtiming', 'data');
  p.textContent = 'the data';
  document.body.append(p);
}, 300)</script>`))
	})
	mux.HandleFunc("GET /never", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>never</title><p elementtiming="other">Loading…</p>`))
	})
	// A page whose image never comes never fires its load event.
	release := make(chan struct{})
	mux.HandleFunc("GET /loading", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>loading</title><link rel="icon" href="data:,"><p elementtiming="other">Loading…</p><img src="/hang">`))
	})
	mux.HandleFunc("GET /hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	b := startBrowser(t)

	t.Run("late marker", func(t *testing.T) {
		v := b.View(context.Background(), pages.Page{URL: srv.URL + "/late", Marker: "data"}, pages.Options{})
		if v.Err != nil {
			t.Fatal(v.Err)
		}
		if v.DataVisible < 300*time.Millisecond {
			t.Errorf("data visible after %v, want at least the page's 300 ms", v.DataVisible)
		}
		if v.Requests != 1 || v.Bytes == 0 {
			t.Errorf("%d requests, %d bytes, want the one document and its bytes", v.Requests, v.Bytes)
		}
		t.Logf("late marker: data visible %v, LCP %v, wall %v", v.DataVisible, v.LCP, v.Wall)
	})
	t.Run("no marker", func(t *testing.T) {
		v := b.View(context.Background(), pages.Page{URL: srv.URL + "/never", Marker: "data"}, pages.Options{Timeout: 3 * time.Second})
		if !errors.Is(v.Err, pages.ErrNoMarker) {
			t.Fatalf("view of a page without its marker: err %v, want ErrNoMarker", v.Err)
		}
		if v.DataVisible != 0 {
			t.Errorf("a failed view reads data visible after %v", v.DataVisible)
		}
	})
	t.Run("still loading", func(t *testing.T) {
		v := b.View(context.Background(), pages.Page{URL: srv.URL + "/loading", Marker: "data"}, pages.Options{Timeout: 3 * time.Second})
		if !errors.Is(v.Err, pages.ErrNoMarker) {
			t.Fatalf("view of a page still loading at the view's end: err %v, want ErrNoMarker", v.Err)
		}
	})
	t.Run("constant rate", func(t *testing.T) {
		const interval = 250 * time.Millisecond
		cs, err := b.Open(context.Background(), pages.Page{URL: srv.URL + "/late", Marker: "data"}, pages.Options{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		begin := time.Now()
		views := cs.Run(context.Background(), 4, time.Second)
		if len(views) != 4 {
			t.Fatalf("%d views in a second at 4 per second, want 4", len(views))
		}
		ok, ran := 0, -1
		for i, v := range views {
			t.Logf("view %d: started %v in, for %v, err %v", i, v.Start.Sub(begin), v.Wall, v.Err)
			if v.Err == nil {
				ok++
			} else if !errors.Is(v.Err, pages.ErrBusy) {
				t.Errorf("view %d: %v", i, v.Err)
			}
			// A view starts when it is due, or later when a loaded
			// machine wakes the runner late: never before.
			if due := time.Duration(i) * interval; v.Start.Sub(begin) < due {
				t.Errorf("view %d started %v in, before it was due at %v", i, v.Start.Sub(begin), due)
			}
			if errors.Is(v.Err, pages.ErrBusy) {
				continue
			}
			// One context: a view runs only once the one before has
			// ended.
			if ran >= 0 {
				if end := views[ran].Start.Add(views[ran].Wall); v.Start.Before(end) {
					t.Errorf("view %d started %v in, while view %d ran until %v in: two views in one context", i, v.Start.Sub(begin), ran, end.Sub(begin))
				}
			}
			ran = i
		}
		// Each view takes more than 300 ms, so one context cannot take all
		// four views due every 250 ms: the second finds it busy.
		if ok == 0 || views[1].Err == nil {
			t.Errorf("%d of 4 views ran in 1 context, the second with error %v: want the first to run and the second to find the context busy", ok, views[1].Err)
		}
	})
}

// TestNoChromium: without a Chromium on the PATH, Start fails saying what
// to install, and a page test fails with it (startBrowser), never skips.
func TestNoChromium(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := pages.Start()
	if !errors.Is(err, pages.ErrNoChromium) || !strings.Contains(err.Error(), "apt-get install -y --no-install-recommends chromium") {
		t.Fatalf("Start without Chromium: %v, want ErrNoChromium saying what to install", err)
	}
}
