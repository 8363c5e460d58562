import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { apolloOptions, bodyRefusal, refuseByteOrderMark, refuseLargeQuery, refuseUnserved } from '@crudbench/node-base/graphql/apollo.js';
import { requestContext } from '@crudbench/node-base/graphql/context.js';
import { writeError } from '@crudbench/node-base/graphql/errors.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { ping } from '@crudbench/node-base/store/pool.js';
import { buildSchema } from './schema.js';

/**
 * createApollo returns the Apollo Server of the schema, not yet started:
 * node-base's options (graphql/apollo.js: the Go app's codes, statuses and
 * limits, introspection on, which nest-graphql's Apollo driver sets too)
 * and no landing page, as the Go app serves the schema (its GraphiQL is a
 * page of its own). The app stops it after its HTTP server (server.js).
 */
export function createApollo({ logger }) {
  const options = apolloOptions(logger);
  return new ApolloServer({
    ...options,
    schema: buildSchema(),
    plugins: [ApolloServerPluginLandingPageDisabled(), ...options.plugins],
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
        const stores = { persons, personWriter, vacancies, users, tokens };
        return requestContext(stores, req.headers.authorization, { deadline: res.locals.deadline, signal: res.locals.signal });
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
    const refused = bodyRefusal(err);
    if (refused) return writeError(req, res, ...refused);
    logger.error({ err, method: req.method, path: req.path }, 'internal error');
    return writeError(req, res, 500, 'INTERNAL', 'internal error');
  });

  // The request's deadline and the client's leaving, for the limits.
  return (req, res) => {
    res.locals = { deadline: performance.now() + requestTimeoutMs };
    app(req, res);
  };
}
