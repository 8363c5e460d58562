package pages

import (
	"slices"
	"time"
)

// Summary is what a scenario's views add up to: the times a person waits
// as percentiles over the views that painted their marker, the rest as
// means per such view.
type Summary struct {
	// Views counts the views due, Failed those that failed (ErrBusy,
	// ErrNoMarker, an error of the browser).
	Views  int `json:"views"`
	Failed int `json:"failed"`
	// DataVisible and LCP are the 50th and 95th percentiles.
	DataVisibleP50 time.Duration `json:"dataVisibleP50"`
	DataVisibleP95 time.Duration `json:"dataVisibleP95"`
	LCPP50         time.Duration `json:"lcpP50"`
	LCPP95         time.Duration `json:"lcpP95"`
	// Bytes, JSBytes and Requests are per view, Script and Task too.
	Bytes    float64       `json:"bytes"`
	JSBytes  float64       `json:"jsBytes"`
	Requests float64       `json:"requests"`
	Script   time.Duration `json:"script"`
	Task     time.Duration `json:"task"`
}

// Summarize adds up views, as Run returns them.
func Summarize(views []View) Summary {
	s := Summary{Views: len(views)}
	var visible, lcp []time.Duration
	var script, task time.Duration
	for _, v := range views {
		if v.Err != nil {
			s.Failed++
			continue
		}
		visible, lcp = append(visible, v.DataVisible), append(lcp, v.LCP)
		s.Bytes += float64(v.Bytes)
		s.JSBytes += float64(v.JSBytes)
		s.Requests += float64(v.Requests)
		script += v.Script
		task += v.Task
	}
	ok := len(visible)
	if ok == 0 {
		return s
	}
	s.DataVisibleP50, s.DataVisibleP95 = percentile(visible, 0.5), percentile(visible, 0.95)
	s.LCPP50, s.LCPP95 = percentile(lcp, 0.5), percentile(lcp, 0.95)
	n := float64(ok)
	s.Bytes, s.JSBytes, s.Requests = s.Bytes/n, s.JSBytes/n, s.Requests/n
	s.Script, s.Task = script/time.Duration(ok), task/time.Duration(ok)
	return s
}

// percentile is the nearest-rank p-quantile of ds, which it sorts.
func percentile(ds []time.Duration, p float64) time.Duration {
	slices.Sort(ds)
	i := int(float64(len(ds))*p+0.999999) - 1
	return ds[max(0, min(i, len(ds)-1))]
}
