import Fastify, { LogController } from 'fastify';
import mercurius from 'mercurius';
import { MAX_QUERY_TOKENS } from '@crudbench/node-base/graphql/limits.js';
import { knownRootTypeRule } from '@crudbench/node-base/graphql/rules.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { bearerToken } from '@crudbench/node-base/tokens.js';
import { mediaType } from '@crudbench/node-base/graphql/errors.js';
import { createErrorFormatter, sendError } from './errors.js';
import { addLimits } from './limits.js';
import { loaders } from './loaders.js';
import { buildSchema } from './schema.js';

// The methods /graphql serves, as the Go app lists them in Allow.
const ALLOWED = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/**
 * createApp returns the Fastify app, not yet listening: /healthz, /readyz
 * and Mercurius on /graphql. deps: { logger, pool, persons, personWriter,
 * vacancies, users, tokens, requestTimeoutMs, jit, serverFactory }; jit is
 * Mercurius's option (0: off, its default; n: a query is compiled with
 * graphql-jit once it has run n times); requestTimeoutMs (REQUEST_TIMEOUT) after a
 * request's head arrived, the query limits' analysis stops and answers 503,
 * as the Go app's does at its request's deadline.
 */
export function createApp({ logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs, jit = 0, serverFactory }) {
  const app = Fastify({
    loggerInstance: logger,
    // No line per request, as the other GraphQL apps log none.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    ...(serverFactory && { serverFactory }),
  });

  app.decorateRequest('deadline', 0);
  // Aborted when the client leaves before its answer (request.signal is
  // aborted once the request's body has been read).
  app.decorateRequest('gone', null);
  // The request's deadline, and what the Go app refuses before GraphQL:
  // another method (405), a body over the limit (413, before it is read),
  // a POST not sent as JSON (415, where Fastify would read text too);
  // OPTIONS is answered with the methods.
  app.addHook('onRequest', async (request, reply) => {
    request.deadline = performance.now() + requestTimeoutMs;
    if (request.url.split('?')[0] !== '/graphql') {
      // Answered before the body, which Fastify would read first.
      return request.is404 ? notFound(request, reply) : undefined;
    }
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    request.gone = gone.signal;
    if (!ALLOWED.includes(request.method)) {
      reply.header('Allow', ALLOWED.join(', '));
      const message = `${request.method} is not allowed here: send POST (or GET for a query)`;
      return sendError(request, reply, 405, 'METHOD_NOT_ALLOWED', message);
    }
    if (request.method === 'OPTIONS') return reply.header('Allow', ALLOWED.join(', ')).code(200).send();
    if (Number(request.headers['content-length']) > MAX_BODY_BYTES) {
      return sendError(request, reply, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    if (request.method === 'POST' && mediaType(request.headers['content-type']) !== 'application/json') {
      const got = request.headers['content-type'] ? `Content-Type ${request.headers['content-type']}` : 'no Content-Type';
      return sendError(request, reply, 415, 'UNSUPPORTED_MEDIA_TYPE', `send the request as Content-Type: application/json, not ${got}`);
    }
    return undefined;
  });

  app.get('/healthz', async (request, reply) => reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('ok'));
  app.get('/readyz', async (request, reply) => {
    const ok = await ping(pool);
    return reply
      .code(ok ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: ok ? 'ready' : 'unavailable' });
  });
  app.setNotFoundHandler(notFound);

  // Fastify's JSON parser skips a byte-order mark, which JSON sent over a
  // network must not carry (RFC 8259, 8.1): refused as the Go app does.
  const parseJSON = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.charCodeAt(0) !== 0xfeff) return parseJSON(request, body, done);
    const err = new SyntaxError('the body starts with a byte-order mark');
    err.statusCode = 400;
    return done(err, undefined);
  });

  app.register(mercurius, {
    schema: buildSchema(),
    loaders,
    jit,
    graphiql: false,
    graphql: { parseOptions: { maxTokens: MAX_QUERY_TOKENS } },
    validationRules: [knownRootTypeRule],
    errorFormatter: createErrorFormatter(logger),
    context: (request) => ({
      persons,
      personWriter,
      vacancies,
      users,
      tokens,
      deadline: request.deadline,
      signal: request.gone,
      ...authenticate(request.headers.authorization, tokens),
    }),
  });
  app.after(() => addLimits(app));
  return app;
}

/** notFound answers a path the app does not serve as net/http answers it. */
const notFound = (request, reply) => reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n');

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
