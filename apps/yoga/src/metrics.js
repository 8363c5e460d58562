import http from 'node:http';
import client from 'prom-client';

/**
 * serveMetrics serves /metrics on addr with the process's CPU and memory
 * (process_cpu_seconds_total, process_resident_memory_bytes) and the pool's
 * connections, the figures the bench reads from every app.
 */
export function serveMetrics(addr, pool) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const gauge = (name, help, value) =>
    new client.Gauge({ name, help, registers: [registry], collect() { this.set(value()); } });
  gauge('pg_pool_total_conns', 'All open connections now.', () => pool.totalCount);
  gauge('pg_pool_idle_conns', 'Open connections waiting for a request now.', () => pool.idleCount);
  gauge('pg_pool_waiting_requests', 'Requests waiting for a connection now.', () => pool.waitingCount);
  // The pool counters the bench reads from every app, under the names of
  // pgx's collector (the Go apps') so that all apps are read alike.
  const counter = (name, help, value) =>
    new client.Counter({ name, help, registers: [registry], collect() { this.reset(); this.inc(value()); } });
  counter('pgxpool_acquire_count_total', 'Connections handed out by the pool.', () => pool.acquires.count);
  counter('pgxpool_acquire_duration_seconds_total', 'Seconds callers waited for a connection from the pool, in all.', () => pool.acquires.waitSeconds);
  gauge('pgxpool_max_conns', 'The most connections the pool opens.', () => pool.options.max);

  const server = http.createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  });
  return new Promise((resolve) => server.listen(addr.port, addr.host || undefined, () => resolve(server)));
}
