package cost

import (
	"time"

	"crudbench/bench/results"
	"crudbench/bench/sampler"
)

// replicasCost is the cost of an app that runs as several processes (its
// replicas behind one load balancer) over the window from to to: the sum
// of each replica's cost as appCost takes it from its own scrapes. CPU
// adds up (its peak is the sum of the replicas' peaks, which may come at
// different moments: a bound, not a reading), and so do RSS's mean, peak,
// start and end, and the pool's acquisitions, wait and size (the
// connections the database must hold for the app).
//
// A replica that was not read over the window makes the whole cost
// unavailable, never a sum of the others: unread lists their URLs.
func replicasCost(series map[string]sampler.Series, src Sources, from, to time.Time, successes, requests uint64) (c results.ProcessCost, unread []string) {
	c = results.ProcessCost{Replicas: len(src.scrapes)}
	pool := &results.PoolCost{}
	for _, s := range src.scrapes {
		ser := series[s.series]
		one := appCost(ser, src, from, to, successes)
		if !one.Available || !readThrough(ser, to) {
			unread = append(unread, s.url)
			continue
		}
		add(&c, one)
		if p := poolCost(ser, from, to, requests); p != nil && pool != nil {
			pool.Acquires += p.Acquires
			pool.AcquireWaitSeconds += p.AcquireWaitSeconds
			pool.MaxConns += p.MaxConns
		} else {
			pool = nil // a pool without one replica's is no pool's figure
		}
	}
	if len(unread) > 0 {
		return results.ProcessCost{Replicas: len(src.scrapes)}, unread
	}
	c.Available, c.Source = true, results.SourceMetrics
	if pool != nil {
		pool.WaitMsPerRequest = perRequest(pool.AcquireWaitSeconds*1000, requests)
		c.Pool = pool
	}
	return c, nil
}

// readThrough reports whether a replica's scrapes cover a window ending at
// to: it
// answered from the first scrape on (a replica that was down at first
// would have its CPU over the window extrapolated from part of it) and
// once more at or after the window's end (one that went down during it
// has no such scrape). A slow scrape in between takes nothing away: CPU
// time and the pool's counters are totals.
func readThrough(ser sampler.Series, to time.Time) bool {
	if len(ser.Samples) == 0 || ser.Samples[len(ser.Samples)-1].At.Before(to) {
		return false
	}
	first := ser.Samples[0].At
	for _, at := range ser.Misses {
		if at.Before(first) {
			return false
		}
	}
	return true
}

// add adds one replica's figures to the app's. All its per-request figures
// divide by the same requests, so they add up as the totals do.
func add(c *results.ProcessCost, one results.ProcessCost) {
	c.CPUMean += one.CPUMean
	c.CPUMax += one.CPUMax
	c.CPUMsPerRequest += one.CPUMsPerRequest
	c.CPUSeconds += one.CPUSeconds
	c.CPUResolutionMsPerRequest += one.CPUResolutionMsPerRequest
	c.RSSMeanMB += one.RSSMeanMB
	c.RSSMaxMB += one.RSSMaxMB
	c.RSSStartMB += one.RSSStartMB
	c.RSSEndMB += one.RSSEndMB
}
