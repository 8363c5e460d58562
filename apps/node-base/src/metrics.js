// The runtime's own figures every Node app exports beside its pool's:
// prom-client's default metrics, with the settings the bench reads them
// at, so that every app's pauses are measured alike; and the METRICS_ADDR
// server of every HTTP app that serves them.
import http from 'node:http';
import { registerPoolMetrics } from './store/poolMetrics.js';

/**
 * GC_DURATION_BUCKETS are the bounds, in seconds, of the collections'
 * histogram (nodejs_gc_duration_seconds). prom-client's default bounds are
 * a factor of 10 apart from 1 ms, which puts every scavenge in one bucket;
 * these are a factor of 2 to 2.5 apart from half a millisecond, so that a
 * run's p99 pause says whether collections were a few milliseconds or tens.
 */
export const GC_DURATION_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];

/**
 * EVENT_LOOP_RESOLUTION_MS is the interval of the timer that times the
 * event loop (perf_hooks.monitorEventLoopDelay, prom-client's default):
 * each turn's delay is measured to it, and a hold of the loop shorter than
 * it can go unseen.
 */
export const EVENT_LOOP_RESOLUTION_MS = 10;

/**
 * registerRuntimeMetrics adds prom-client's default metrics to registry
 * with client (the app's own prom-client): the process's CPU and memory,
 * the collections (nodejs_gc_duration_seconds) and the event loop's delay
 * since the last scrape (nodejs_eventloop_lag_*, reset at every scrape).
 */
export function registerRuntimeMetrics(client, registry) {
  client.collectDefaultMetrics({
    register: registry,
    gcDurationBuckets: GC_DURATION_BUCKETS,
    eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS,
  });
}

/**
 * metricsServer returns an HTTP app's serveMetrics(addr, pool), which
 * http/run.js calls for METRICS_ADDR: /metrics on addr, and nothing else,
 * with the process's CPU and memory (process_cpu_seconds_total,
 * process_resident_memory_bytes), the runtime's pauses and the pool's
 * connections, the figures the bench reads from every app, registered with
 * client, the app's own prom-client.
 */
export function metricsServer(client) {
  return function serveMetrics(addr, pool) {
    const registry = new client.Registry();
    registerRuntimeMetrics(client, registry);
    registerPoolMetrics(client, registry, pool);

    const server = http.createServer(async (req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
    });
    return new Promise((resolve) => server.listen(addr.port, addr.host || undefined, () => resolve(server)));
  };
}
