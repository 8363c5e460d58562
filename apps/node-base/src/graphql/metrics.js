import http from 'node:http';
import { registerRuntimeMetrics } from '../metrics.js';
import { registerPoolMetrics } from '../store/poolMetrics.js';

/**
 * metricsServer returns a GraphQL app's serveMetrics(addr, pool), which
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
