package cost_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"crudbench/bench/cost"
	"crudbench/bench/sampler"
)

// A window can end after its attack's last answer (half an interval past
// its last request): the watchers stop no earlier than its end, so an
// app's scraped series has a sample at or after it, which its cost needs
// (TestReplicas lost a replica's cost on a busy machine when the last
// scrape went out just before the window's end).
func TestWatchStopsAfterTheWindow(t *testing.T) {
	metrics := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "process_cpu_seconds_total 1.5\nprocess_resident_memory_bytes 1e+07\n")
	}))
	defer metrics.Close()

	stop := cost.NewLedger().Watch([]cost.Watcher{sampler.NewScraper("app", metrics.URL, sampler.MinScrapeInterval)}, time.Second)
	// The window ends after the first tick of the scraper: stopped at
	// once, its last scrape would be that tick's.
	end := time.Now().Add(sampler.MinScrapeInterval + 200*time.Millisecond)
	series, _ := stop(0, end)
	samples := series["app"].Samples
	if len(samples) == 0 {
		t.Fatal("no scrape was recorded")
	}
	if last := samples[len(samples)-1].At; last.Before(end) {
		t.Errorf("the last scrape is %v before the window's end, want at or after it", end.Sub(last))
	}
}
