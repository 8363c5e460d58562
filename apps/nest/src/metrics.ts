import { createServer, type Server } from 'node:http';
import * as client from 'prom-client';
import type { Pool } from '@crudbench/node-base/http/run.js';
import { registerRuntimeMetrics } from '@crudbench/node-base/metrics.js';
import { registerPoolMetrics } from '@crudbench/node-base/store/poolMetrics.js';

/**
 * serveMetrics serves /metrics on addr, and nothing else: the process's CPU
 * and memory (process_cpu_seconds_total, process_resident_memory_bytes: the
 * figures the bench reads from every app), the runtime's collections and
 * event loop, and the pool's connections under pgx's names, as every Node
 * app serves them.
 */
export function serveMetrics(addr: { host: string; port: number }, pool: Pool): Promise<Server> {
  const registry = new client.Registry();
  registerRuntimeMetrics(client, registry);
  registerPoolMetrics(client, registry, pool);
  const server = createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  });
  return new Promise((resolve) => server.listen(addr.port, addr.host || undefined, () => resolve(server)));
}
