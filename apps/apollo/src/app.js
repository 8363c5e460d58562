import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { MAX_QUERY_TOKENS } from '@crudbench/node-base/graphql/limits.js';
import { knownRootTypeRule } from '@crudbench/node-base/graphql/rules.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { bearerToken } from '@crudbench/node-base/tokens.js';
import { mediaType, writeError } from '@crudbench/node-base/graphql/errors.js';
import { createFormatError, useStatus } from './errors.js';
import { refuseLargeQuery, refusedRule, useLimits } from './limits.js';
import { createLoaders } from './loaders.js';
import { buildSchema } from './schema.js';

/**
 * createApollo returns the Apollo Server of the schema, not yet started:
 * the Go app's codes, statuses and limits, introspection on and no landing
 * page, as the Go app serves the schema (its GraphiQL is a page of its own).
 */
export function createApollo({ logger }) {
  return new ApolloServer({
    schema: buildSchema(),
    introspection: true,
    // The contract has no persisted queries and no CSRF header: a GET
    // query needs none, as in the Go app.
    persistedQueries: false,
    csrfPrevention: false,
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: MAX_QUERY_TOKENS },
    validationRules: [refusedRule, knownRootTypeRule],
    formatError: createFormatError(logger),
    logger,
    // The app stops it after its HTTP server (server.js).
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), useLimits(), useStatus()],
  });
}

/**
 * createApp returns the Express app: /healthz, /readyz and Apollo on
 * /graphql. deps: { apollo (started), logger, pool, persons, personWriter,
 * vacancies, users, tokens, requestTimeoutMs }; requestTimeoutMs
 * (REQUEST_TIMEOUT) after a request's head arrived, the query limits'
 * analysis stops and answers 503, as the Go app's does at its request's
 * deadline.
 */
export function createApp({ apollo, logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs }) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.get('/healthz', (req, res) => {
    res.set('Cache-Control', 'no-store').type('text/plain').send('ok');
  });
  app.get('/readyz', async (req, res) => {
    const ok = await ping(pool);
    res
      .status(ok ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ok ? 'ready' : 'unavailable' });
  });

  app.all(
    '/graphql',
    refuseUnserved,
    express.json({ limit: MAX_BODY_BYTES, verify: refuseByteOrderMark }),
    refuseLargeQuery,
    expressMiddleware(apollo, {
      async context({ req, res }) {
        return {
          persons,
          personWriter,
          vacancies,
          users,
          tokens,
          loaders: createLoaders(persons),
          deadline: res.locals.deadline,
          signal: res.locals.signal,
          ...authenticate(req.headers.authorization, tokens),
        };
      },
    }),
  );

  // Any other path, as net/http answers it (Express's own 404 would wait
  // for the request's body first).
  app.use((req, res) => {
    res.status(404).type('text/plain').send('404 page not found\n');
  });

  // The one error handler: the body's refusals in the Go app's words,
  // anything else INTERNAL without details.
  app.use((err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err.type === 'entity.too.large') {
      return writeError(req, res, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    if (
      err.type === 'entity.parse.failed' ||
      err.type === 'entity.verify.failed' ||
      err.type === 'encoding.unsupported' ||
      err.type === 'charset.unsupported'
    ) {
      return writeError(req, res, 400, 'BAD_REQUEST', NOT_A_REQUEST);
    }
    logger.error({ err, method: req.method, path: req.path }, 'internal error');
    return writeError(req, res, 500, 'INTERNAL', 'internal error');
  });

  // The request's deadline and the client's leaving, for the limits.
  return (req, res) => {
    res.locals = { deadline: performance.now() + requestTimeoutMs };
    app(req, res);
  };
}

/**
 * refuseByteOrderMark refuses a body that starts with a byte-order mark,
 * which JSON sent over a network must not carry (RFC 8259, 8.1) and which
 * express.json would skip: the Go app answers it 400.
 */
function refuseByteOrderMark(req, res, buf) {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) throw new SyntaxError('the body starts with a byte-order mark');
}

const NOT_A_REQUEST = 'the body is not a GraphQL request: send one JSON object like {"query": "…", "variables": {…}}';

// The methods /graphql serves, as the Go app lists them in Allow.
const ALLOWED = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/**
 * refuseUnserved answers, before the body is read, what the Go app refuses
 * before GraphQL: another method (405), a body over the limit (413), a
 * POST not sent as JSON (415, where Apollo would take other types or answer
 * 400); OPTIONS is answered with the methods, and HEAD runs as GET.
 */
function refuseUnserved(req, res, next) {
  if (!ALLOWED.includes(req.method)) {
    res.set('Allow', ALLOWED.join(', '));
    return writeError(req, res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here: send POST (or GET for a query)`);
  }
  if (req.method === 'OPTIONS') return res.set('Allow', ALLOWED.join(', ')).status(200).end();
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
    // Node reads and drops the body it will not use, so that the client
    // can finish sending it and read the answer.
    return writeError(req, res, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  }
  if (req.method === 'POST' && mediaType(req.headers['content-type']) !== 'application/json') {
    const got = req.headers['content-type'] ? `Content-Type ${req.headers['content-type']}` : 'no Content-Type';
    return writeError(req, res, 415, 'UNSUPPORTED_MEDIA_TYPE', `send the request as Content-Type: application/json, not ${got}`);
  }
  // Apollo serves GET and POST; express sends no body for HEAD.
  if (req.method === 'HEAD') req.method = 'GET';
  const signal = new AbortController();
  res.once('close', () => signal.abort());
  res.locals.signal = signal.signal;
  // Apollo's middleware wants req.body set, which express.json leaves
  // unset when there is no body: Apollo then refuses a POST without one.
  req.body = undefined;
  return next();
}

/**
 * authenticate reads a bearer token: { user } for a valid one, { tokenError }
 * (the message a field needing a user answers) for another, nothing for none.
 */
function authenticate(header, tokens) {
  if (!header) return {};
  const token = bearerToken(header);
  try {
    if (!token) throw new Error('not a bearer token');
    return { user: tokens.verify(token) };
  } catch (err) {
    return { tokenError: err.expired ? 'the token has expired: log in again' : 'the token is not valid: log in again' };
  }
}

/** ping reports whether the database answers within 2 s. */
async function ping(pool) {
  try {
    await Promise.race([pool.query('SELECT 1'), new Promise((_, reject) => setTimeout(reject, 2000, new Error('ping timeout')).unref())]);
    return true;
  } catch {
    return false;
  }
}
