import pino from 'pino';
import { createApp } from './app.js';
import { writeError } from './errors.js';
import { ConfigError, loadConfig, DEV_AUTH_SECRET } from '@crudbench/node-base/config.js';
import { serveMetrics } from './metrics.js';
import { serveDebug } from '@crudbench/node-base/debug.js';
import { RETRY_AFTER, createServer } from '@crudbench/node-base/http/server.js';
import { openPool } from '@crudbench/node-base/store/pool.js';
import { personStore } from './store/persons.js';
import { personWriter } from '@crudbench/node-base/store/personWrites.js';
import { userStore } from '@crudbench/node-base/store/users.js';
import { vacancyStore } from '@crudbench/node-base/store/vacancies.js';
import { createTokens } from '@crudbench/node-base/tokens.js';

const DEFAULT_ADDR = ':8089'; // rest 8081, graphql 8082, htmx 8083, express 8084, yoga 8085, grpc 8087, apollo 8088
const SHUTDOWN_GRACE_MS = 10_000;

/** run starts the app and resolves once it has shut down after signal. */
export async function run(env, { signal } = {}) {
  const config = loadConfig(env, DEFAULT_ADDR);
  const jit = readJit(env.MERCURIUS_JIT);
  const logger = pino({
    level: config.logLevel,
    base: undefined,
    // Field names as slog writes them, so one log reader serves every app.
    messageKey: 'msg',
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label.toUpperCase() }) },
  });
  if (config.authSecret === DEV_AUTH_SECRET) {
    logger.warn('AUTH_SECRET is not set: tokens are signed with the public development secret');
  }

  const pool = openPool(config, 'crudbench-mercurius');
  // The Go apps' HTTP rules, and the request deadline Mercurius has not: a
  // request still unanswered at REQUEST_TIMEOUT gets UNAVAILABLE, whatever
  // it waits for (a frozen database holds each statement until pg's own
  // timeouts, one after another).
  const serverFactory = (handler) =>
    createServer(handler, {
      requestTimeoutMs: config.requestTimeoutMs,
      logger,
      debugPause: config.debugPause,
      answers: {
        badBody: (req, res) => writeError(req, res, 400, 'BAD_REQUEST', 'the request body could not be read'),
        internal: (req, res) => writeError(req, res, 500, 'INTERNAL', 'internal error'),
        unavailable: (req, res) => {
          res.setHeader('Retry-After', RETRY_AFTER);
          writeError(req, res, 503, 'UNAVAILABLE', 'the database did not answer in time');
        },
      },
    });
  const app = createApp({
    logger,
    pool,
    persons: personStore(pool),
    personWriter: personWriter(pool),
    vacancies: vacancyStore(pool),
    users: userStore(pool),
    tokens: createTokens(config.authSecret, config.tokenTtlMs),
    requestTimeoutMs: config.requestTimeoutMs,
    jit,
    serverFactory,
  });
  await app.listen({ port: config.addr.port, host: config.addr.host || '::' });
  const server = app.server;
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
  // Fastify closes the idle connections and waits for the others.
  const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  await app.close();
  clearTimeout(grace);
  metrics?.close();
  debug?.close();
  await pool.end();
  logger.info('stopped');
}

/**
 * readJit reads MERCURIUS_JIT, Mercurius's jit option: empty or 0 leaves
 * graphql-jit off (Mercurius's default); n compiles a query once it has run
 * n times (1: on its second run).
 */
function readJit(raw = '') {
  if (raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    throw new ConfigError(`config: MERCURIUS_JIT ${JSON.stringify(raw)}: must be empty or a whole number, such as 1`);
  }
  return n;
}
