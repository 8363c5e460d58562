import { readFileSync } from 'node:fs';
import express from 'express';
import { authenticate, requireEditor } from './http/auth.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { ping } from '@crudbench/node-base/store/pool.js';
import { errorHandler, sendProblem } from './http/respond.js';
import { loginRoutes } from './routes/login.js';
import { personRoutes } from './routes/persons.js';
import { vacancyRoutes } from './routes/vacancies.js';

// The API's description is the repository's one document, served as is.
const OPENAPI_URL = new URL('../../../resources/openapi.yaml', import.meta.url);

/**
 * createApp returns the Express app: the whole surface is on this screen.
 * deps: { logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs }.
 */
export function createApp({ logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs }) {
  const app = express();
  // Express's own ETag would hash the body; ours is the row's version.
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.set('query parser', 'simple');
  // Paths as the Go app's router matches them: /api/persons/ and
  // /API/persons are not /api/persons.
  app.set('strict routing', true);
  app.set('case sensitive routing', true);

  app.use(logRequests(logger));
  app.use(deadline(requestTimeoutMs));
  app.use(limitBody);

  app.get('/healthz', (req, res) => {
    res.set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('ok');
  });
  app.get('/readyz', ready(pool));
  const openapi = readFileSync(OPENAPI_URL);
  app.get('/openapi.yaml', (req, res) => res.setHeader('Content-Type', 'application/yaml').end(openapi));

  const api = express.Router({ strict: true, caseSensitive: true });
  const reader = authenticate(tokens);
  const writer = [reader, requireEditor];
  loginRoutes(api, { users, tokens });
  personRoutes(api, { persons, personWriter, reader, writer });
  vacancyRoutes(api, { vacancies, reader, writer });
  app.use('/api', api);

  app.use((req, res) => {
    sendProblem(req, res, 404, 'nothing lives at this path; the API is described at /openapi.yaml');
  });
  app.use(errorHandler(logger));
  return app;
}

/** ready answers 200 while the database answers a ping within 2 s. */
function ready(pool) {
  return async (req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-store');
    if (await ping(pool)) res.end('{"status":"ready"}');
    else res.status(503).end('{"status":"unavailable"}');
  };
}

/**
 * deadline answers 503 for a request still unanswered after timeoutMs, so a
 * client never waits on a database that does not answer; the pool's own
 * timeouts end the work behind it.
 */
function deadline(timeoutMs) {
  return (req, res, next) => {
    const timer = setTimeout(() => {
      sendProblem(req, res, 503, 'the database did not answer in time');
    }, timeoutMs);
    res.on('close', () => clearTimeout(timer));
    next();
  };
}

/** limitBody refuses a declared body over 1 MiB before reading it. */
function limitBody(req, res, next) {
  if (Number(req.get('Content-Length')) > MAX_BODY_BYTES) {
    return sendProblem(req, res, 413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
  }
  next();
}

/** logRequests logs every request at debug, the only level that wants them. */
function logRequests(logger) {
  if (!logger.isLevelEnabled('debug')) return (req, res, next) => next();
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      logger.debug(
        { method: req.method, path: req.path, status: res.statusCode, duration_ms: Number(process.hrtime.bigint() - start) / 1e6 },
        'request',
      );
    });
    next();
  };
}
