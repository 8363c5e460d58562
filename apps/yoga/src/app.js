import { createYoga } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { useLimits } from './limits.js';
import { createLoaders } from './loaders.js';
import { buildSchema } from './schema.js';

export const MAX_BODY_BYTES = 1 << 20;

/**
 * createApp returns the request listener: /healthz, /readyz and Yoga on
 * /graphql. deps: { logger, pool, persons, personWriter, vacancies, users, tokens }.
 */
export function createApp({ logger, pool, persons, personWriter, vacancies, users, tokens }) {
  const yoga = createYoga({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: logger,
    plugins: [useLimits()],
    // What is not a GraphQLError of ours is an internal error: logged, and
    // answered without details.
    maskedErrors: {
      maskError(error) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError || error.extensions?.code)) return error;
        logger.error({ err: original ?? error }, 'internal error');
        return new GraphQLError('internal error', { extensions: { code: 'INTERNAL' } });
      },
    },
    context({ request }) {
      const ctx = { persons, personWriter, vacancies, users, tokens, loaders: createLoaders(persons) };
      const header = request.headers.get('authorization');
      if (header) {
        const [scheme, ...rest] = header.split(' ');
        const token = rest.join(' ').trim();
        try {
          if (scheme.toLowerCase() !== 'bearer' || !token) throw new Error('not a bearer token');
          ctx.user = tokens.verify(token);
        } catch (err) {
          ctx.tokenError = err.expired ? 'the token has expired: log in again' : 'the token is not valid: log in again';
        }
      }
      return ctx;
    },
  });

  return async (req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('ok');
      return;
    }
    if (path === '/readyz') {
      const ok = await ping(pool);
      res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(ok ? '{"status":"ready"}' : '{"status":"unavailable"}');
      return;
    }
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      const body = JSON.stringify({
        errors: [{ message: `the body is larger than ${MAX_BODY_BYTES} bytes`, extensions: { code: 'REQUEST_TOO_LARGE' } }],
      });
      res.writeHead(413, { 'Content-Type': 'application/json', Connection: 'close' }).end(body);
      return;
    }
    yoga(req, res);
  };
}

/** ping reports whether the database answers within 2 s. */
async function ping(pool) {
  try {
    await Promise.race([
      pool.query('SELECT 1'),
      new Promise((_, reject) => setTimeout(reject, 2000, new Error('ping timeout')).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}
