package pages_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/bench/pages"
)

func TestSummarize(t *testing.T) {
	ms := time.Millisecond
	var views []pages.View
	for i := 1; i <= 20; i++ {
		views = append(views, pages.View{
			DataVisible: time.Duration(i) * 10 * ms, LCP: time.Duration(i) * 20 * ms,
			Bytes: 1000, JSBytes: int64(i%2) * 500, Requests: 4, Script: 2 * ms, Task: 6 * ms,
		})
	}
	views = append(views, pages.View{Err: pages.ErrBusy}, pages.View{Err: pages.ErrNoMarker, DataVisible: time.Hour})
	for _, tt := range []struct {
		name  string
		views []pages.View
		want  pages.Summary
	}{
		{"failed views are counted, not timed", views, pages.Summary{
			Views: 22, Failed: 2,
			DataVisibleP50: 100 * ms, DataVisibleP95: 190 * ms, LCPP50: 200 * ms, LCPP95: 380 * ms,
			Bytes: 1000, JSBytes: 250, Requests: 4, Script: 2 * ms, Task: 6 * ms,
		}},
		{"none painted", views[20:], pages.Summary{Views: 2, Failed: 2}},
		{"none due", nil, pages.Summary{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, pages.Summarize(tt.views)); d != "" {
				t.Errorf("Summarize (-want +got):\n%s", d)
			}
		})
	}
}
