import http from 'node:http';
import client from 'prom-client';
import { registerRuntimeMetrics } from '@crudbench/node-base/metrics.js';
import { registerPoolMetrics } from '@crudbench/node-base/store/poolMetrics.js';

/** DURATION_BUCKETS are the Go apps' request histogram's bounds (apps/internal/metrics), in seconds. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * createMetrics returns the app's registry: the runtime's figures
 * (node-base), the pool's under pgx's names, and the Go grpc app's
 * grpc_server_handling_seconds{grpc_method,grpc_code}, which observe
 * records a call in.
 */
export function createMetrics(pool) {
  const registry = new client.Registry();
  registerRuntimeMetrics(client, registry);
  registerPoolMetrics(client, registry, pool);
  const rpcs = new client.Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Time from the server receiving a unary call to the handler returning, by method and status code.',
    labelNames: ['grpc_method', 'grpc_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    observe(method, code, seconds) {
      rpcs.observe({ grpc_method: method, grpc_code: code }, seconds);
    },
  };
}

/** serveMetrics serves registry's /metrics on addr, and nothing else (METRICS_ADDR). */
export function serveMetrics(addr, registry) {
  const server = http.createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(addr.port, addr.host || undefined, () => resolve(server));
  });
}
