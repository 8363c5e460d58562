package apptest

import (
	"net/http"
	"testing"
	"time"
)

// StallTimeout is the request deadline of the apps' stall tests: short, so
// that a request that waits for it stands out from one that hangs for good.
const StallTimeout = 500 * time.Millisecond

// StallMargin is how late after its deadline an answer may come on a loaded
// machine; a request that hangs on a stalled database never comes.
const StallMargin = 4 * time.Second

// WantDeadline fails unless a request that waited for a stalled database
// (what names it) was answered at its StallTimeout deadline: not before, for
// the database cannot have answered, and not much later.
func WantDeadline(t testing.TB, what string, took time.Duration) {
	t.Helper()
	if took < StallTimeout || took > StallTimeout+StallMargin {
		t.Errorf("%s: answered after %s, want %s and at most %s more", what, took, StallTimeout, StallMargin)
	}
}

// WantAllUnavailable sends reqs at once with client, as more clients than
// the pool has connections would during a stall, and fails unless each is
// answered 503 with Retry-After at its deadline (WantDeadline).
func WantAllUnavailable(t testing.TB, client *http.Client, reqs []*http.Request) {
	t.Helper()
	type answer struct {
		status     int
		retryAfter string
		took       time.Duration
		err        error
	}
	answers := make(chan answer, len(reqs))
	for _, req := range reqs {
		go func() {
			start := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			resp.Body.Close()
			answers <- answer{resp.StatusCode, resp.Header.Get("Retry-After"), time.Since(start), nil}
		}()
	}
	for range reqs {
		a := <-answers
		if a.err != nil {
			t.Errorf("%s", a.err)
			continue
		}
		if a.status != http.StatusServiceUnavailable || a.retryAfter == "" {
			t.Errorf("HTTP %d, Retry-After %q; want 503 with Retry-After", a.status, a.retryAfter)
		}
		WantDeadline(t, "one of many", a.took)
	}
}
