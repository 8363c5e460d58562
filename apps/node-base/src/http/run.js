import { loadConfig } from '../config.js';
import { serveDebug } from '../debug.js';
import { createLogger } from '../logger.js';
import { openPool } from '../store/pool.js';
import { personWriter } from '../store/personWrites.js';
import { userStore } from '../store/users.js';
import { vacancyStore } from '../store/vacancies.js';
import { createTokens } from '../tokens.js';
import { createServer } from './server.js';

/** SHUTDOWN_GRACE_MS is how long a shutdown waits for requests in flight before it closes their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * run is every HTTP Node app's run: it reads the configuration (defaultAddr
 * where ADDR is unset), opens the pool as application name, starts the
 * app, listens, serves the metrics (the app's serveMetrics(addr, pool)) and
 * the debug server, and resolves once it has shut down after signal. The
 * app's part is start(deps), called once with
 *
 * - config, logger, pool, and the stores and tokens every app takes:
 *   persons (the app's persons(pool)), personWriter, vacancies, users,
 *   tokens, requestTimeoutMs;
 * - serve(listener, answers): node-base's createServer for listener with
 *   the request deadline, logger and DEBUG_PAUSE, and the app's answers.
 *
 * start returns { server }, the node:http server to listen with, and
 * optionally listen() to listen in its place (Fastify's own listen),
 * stop() to close in place of the server's close (Fastify's, which closes
 * the idle connections and waits for the others), and close() to run once
 * the server has closed, before the pool ends.
 */
export async function run(env, { signal } = {}, { defaultAddr, name, persons, serveMetrics, start }) {
  const config = loadConfig(env, defaultAddr);
  const logger = createLogger(config);
  const pool = openPool(config, name);
  const app = await start({
    config,
    logger,
    pool,
    persons: persons(pool),
    personWriter: personWriter(pool),
    vacancies: vacancyStore(pool),
    users: userStore(pool),
    tokens: createTokens(config.authSecret, config.tokenTtlMs),
    requestTimeoutMs: config.requestTimeoutMs,
    serve: (listener, answers) =>
      createServer(listener, { requestTimeoutMs: config.requestTimeoutMs, logger, debugPause: config.debugPause, answers }),
  });
  const { server } = app;
  if (app.listen) {
    await app.listen();
  } else {
    // An empty host is every interface, as Node's listen takes it.
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.addr.port, config.addr.host || undefined, resolve);
    });
  }
  const metrics = config.metricsAddr ? await serveMetrics(config.metricsAddr, pool) : null;
  const debug = config.debugAddr ? await serveDebug(config.debugAddr) : null;
  const { port } = server.address();
  logger.info(
    {
      addr: `${config.addr.host}:${port}`,
      metrics_addr: metrics ? `:${metrics.address().port}` : '',
      debug_addr: debug ? `${config.debugAddr.host}:${debug.address().port}` : '',
    },
    'listening',
  );

  await new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', resolve, { once: true });
  });
  logger.info('shutting down');
  const closed = app.stop ? app.stop() : closeServer(server);
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  await closed;
  clearTimeout(grace);
  await app.close?.();
  metrics?.close();
  debug?.close();
  await pool.end();
  logger.info('stopped');
}

/** closeServer closes server's idle connections and resolves once the others have closed. */
function closeServer(server) {
  server.closeIdleConnections();
  return new Promise((resolve) => server.close(resolve));
}
