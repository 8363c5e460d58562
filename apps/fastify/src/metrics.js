import http from 'node:http';
import client from 'prom-client';
import { registerPoolMetrics } from '@crudbench/node-base/store/poolMetrics.js';

/**
 * serveMetrics serves /metrics on addr, and nothing else: the process's CPU
 * and memory (process_cpu_seconds_total, process_resident_memory_bytes: the
 * figures the bench reads from every app) and the pool's connections under
 * pgx's names, as express serves them.
 */
export function serveMetrics(addr, pool) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  registerPoolMetrics(client, registry, pool);
  const server = http.createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  });
  return new Promise((resolve) => server.listen(addr.port, addr.host || undefined, () => resolve(server)));
}
