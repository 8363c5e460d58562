/**
 * registerPoolMetrics adds the pool's figures to registry, with the app's
 * own prom-client (client: one instance per process, so that a cluster's
 * primary can add up its workers'): its connections now, and the counters
 * the bench reads from every app — acquisitions and their wait, counted by
 * openPool, and the pool's size — under the names of pgx's collector (the
 * Go apps'), so that all apps are read alike.
 */
export function registerPoolMetrics(client, registry, pool) {
  const gauge = (name, help, value) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  const counter = (name, help, value) =>
    new client.Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(value());
      },
    });
  gauge('pg_pool_total_conns', 'All open connections now.', () => pool.totalCount);
  gauge('pg_pool_idle_conns', 'Open connections waiting for a request now.', () => pool.idleCount);
  gauge('pg_pool_waiting_requests', 'Requests waiting for a connection now.', () => pool.waitingCount);
  counter('pgxpool_acquire_count_total', 'Connections handed out by the pool.', () => pool.acquires.count);
  counter(
    'pgxpool_acquire_duration_seconds_total',
    'Seconds callers waited for a connection from the pool, in all.',
    () => pool.acquires.waitSeconds,
  );
  gauge('pgxpool_max_conns', 'The most connections the pool opens.', () => pool.options.max);
}
