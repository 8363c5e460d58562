package merge

import (
	"fmt"
	"math"
	"strings"

	"crudbench/bench/results"
)

// appCost is the app's cost as shard 0 measured it (its CPU and memory are
// the app's, whichever runner sampled them), with the per-request figures
// divided by the merged window's requests instead of shard 0's share.
// own is shard 0's result, whose successes the resolution was divided by.
func appCost(own results.Result, successes, requests uint64) results.ProcessCost {
	c := own.AppCost
	if !c.Available {
		return c
	}
	c.CPUMsPerRequest = perRequest(c.CPUSeconds*1000, successes)
	c.CPUResolutionMsPerRequest = perRequest(c.CPUResolutionMsPerRequest*float64(successesOf(own)), successes)
	if c.Pool != nil {
		p := *c.Pool
		p.WaitMsPerRequest = perRequest(p.AcquireWaitSeconds*1000, requests)
		c.Pool = &p
	}
	return c
}

// dbCost is PostgreSQL's cost as shard 0 measured it, per request of all
// shards: the statements over the attacks divided by every shard's
// successful requests of the whole attack (warm-up included, as the count
// is), the CPU over the window by the merged window's successes.
func dbCost(c results.DBCost, attackSuccesses, successes uint64) results.DBCost {
	if c.Available {
		c.StatementsPerRequest = perRequest(float64(c.Statements), attackSuccesses)
	}
	if c.CPUAvailable {
		c.CPUMsPerRequest = perRequest(c.CPUSeconds*1000, successes)
	}
	return c
}

// brokerCost is an amqp app's broker's cost as shard 0 measured it, its
// CPU over the window per request of the merged window, as PostgreSQL's
// is (every shard's requests went through that one broker); nil for
// another kind.
func brokerCost(c *results.BrokerCost, successes uint64) *results.BrokerCost {
	if c == nil {
		return nil
	}
	b := *c
	if b.CPUAvailable {
		b.CPUMsPerRequest = perRequest(b.CPUSeconds*1000, successes)
	}
	return &b
}

// runnerCost is the load generators' cost: the shards' CPU added up (they
// shared the load), their memory the largest shard's, since each runner
// holds its own.
func runnerCost(shards []shard) (results.ProcessCost, string) {
	var c results.ProcessCost
	var each []string
	for _, s := range shards {
		r := s.run.Runner
		if !r.Available {
			continue
		}
		c.Available, c.Source = true, r.Source
		c.CPUSeconds += r.CPUSeconds
		c.CPUMean += r.CPUMean
		c.CPUMax += r.CPUMax
		// Each shard sent an N-th of the requests: the CPU of all of them
		// per request is the mean of the shards' figures.
		c.CPUMsPerRequest += r.CPUMsPerRequest / float64(len(shards))
		c.RSSMeanMB = max(c.RSSMeanMB, r.RSSMeanMB)
		c.RSSMaxMB = max(c.RSSMaxMB, r.RSSMaxMB)
		c.RSSStartMB = max(c.RSSStartMB, r.RSSStartMB)
		c.RSSEndMB = max(c.RSSEndMB, r.RSSEndMB)
		each = append(each, fmt.Sprintf("shard %d: CPU %.1f%% of a core, peak RSS %.1f MB", s.run.Settings.Shard.Index, 100*r.CPUMean, r.RSSMaxMB))
	}
	note := fmt.Sprintf("The runner's cost (runner) is the %d load generators': their CPU added up, their memory the largest one's (%s).", len(shards), strings.Join(each, "; "))
	return c, note
}

// successesOf is how many requests of r's window succeeded.
func successesOf(r results.Result) uint64 {
	return uint64(math.Round(float64(r.Requests) * r.SuccessRatio))
}

func perRequest(total float64, n uint64) float64 {
	if n == 0 {
		return 0
	}
	return total / float64(n)
}
