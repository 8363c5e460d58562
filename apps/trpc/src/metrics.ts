import http from 'node:http';
import client from 'prom-client';
import { registerRuntimeMetrics } from '@crudbench/node-base/metrics.js';
import { registerPoolMetrics } from '@crudbench/node-base/store/poolMetrics.js';

/**
 * serveMetrics serves /metrics on addr, and nothing else: the process's
 * CPU and memory (the figures the bench reads from every app), the
 * runtime's pauses and the pool's connections.
 */
export function serveMetrics(addr: { host: string; port: number }, pool: unknown): Promise<http.Server> {
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
}
