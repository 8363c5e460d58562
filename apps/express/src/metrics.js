import http from 'node:http';
import client from 'prom-client';
import { registerRuntimeMetrics } from '@crudbench/node-base/metrics.js';
import { registerPoolMetrics } from '@crudbench/node-base/store/poolMetrics.js';

// A single process serves its figures with node-base's metricsServer
// (server.js); a cluster's primary serves its workers' added up.

/**
 * registerMetrics adds to registry the process's CPU and memory
 * (process_cpu_seconds_total, process_resident_memory_bytes: the figures the
 * bench reads from every app) and the pool's connections, as node-base's
 * metricsServer does.
 */
function registerMetrics(registry, pool) {
  registerRuntimeMetrics(client, registry);
  registerPoolMetrics(client, registry, pool);
}

/**
 * serveClusterMetrics serves, from the cluster's primary, every worker's
 * figures added up (prom-client's AggregatorRegistry): the app's CPU and
 * memory are the sum of its processes.
 */
export function serveClusterMetrics(addr) {
  const aggregator = new client.AggregatorRegistry();
  const server = http.createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    try {
      const text = await aggregator.clusterMetrics();
      res.writeHead(200, { 'Content-Type': aggregator.contentType }).end(text);
    } catch (err) {
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end(`${err.message}\n`);
    }
  });
  return new Promise((resolve) => server.listen(addr.port, addr.host || undefined, () => resolve(server)));
}

/**
 * reportToPrimary makes a cluster worker answer its primary's requests for
 * metrics with this process's figures.
 */
export function reportToPrimary(pool) {
  registerMetrics(client.register, pool);
  // prom-client installs the worker's answering listener when an
  // AggregatorRegistry is constructed, in the worker as in the primary.
  return new client.AggregatorRegistry();
}
