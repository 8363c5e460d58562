package cost

import (
	"crudbench/bench/results"
	"crudbench/bench/sampler"
	"fmt"
	"time"
)

// MetricsCost exposes how an app's cost and pool are taken from its scraped
// metrics over a window.
func MetricsCost(ser sampler.Series, from, to time.Time, successes, requests uint64) (results.ProcessCost, *results.PoolCost) {
	src := Sources{app: "app", cpu: results.SourceMetrics, scrapes: []scrape{{url: "http://app/metrics", series: "app"}}}
	return appCost(ser, src, from, to, successes), poolCost(ser, from, to, requests)
}

// ReplicasCost exposes how an app's cost is summed over its replicas'
// scraped series, each given with its metrics URL.
func ReplicasCost(urls []string, replicas []sampler.Series, from, to time.Time, successes, requests uint64) (results.ProcessCost, []string) {
	src := Sources{app: "app", cpu: results.SourceMetrics}
	series := map[string]sampler.Series{}
	for i, u := range urls {
		name := fmt.Sprintf("app.replica%d", i+1)
		src.scrapes = append(src.scrapes, scrape{url: u, series: name})
		series[name] = replicas[i]
	}
	return replicasCost(series, src, from, to, successes, requests)
}

// PausesCost exposes how an app's pauses are taken from its scraped
// metrics over a window.
var PausesCost = pausesCost

// BrokerCost exposes how an amqp app's broker's cost is taken from its
// tree's samples (broker) and its queue's readings (queue) over a window.
func BrokerCost(broker, queue sampler.Series, from, to time.Time, successes uint64) *results.BrokerCost {
	src := Sources{app: "app"}.WithBroker(42, func() (int, error) { return 0, nil })
	series := map[string]sampler.Series{targetBroker: broker, targetQueue: queue}
	return brokerCost(series, src, from, to, successes)
}
