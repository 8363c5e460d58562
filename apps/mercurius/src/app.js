import Fastify, { LogController } from 'fastify';
import mercurius from 'mercurius';
import { authenticate } from '@crudbench/node-base/graphql/auth.js';
import { addRequestChecks, limitHooks, mercuriusOptions, notFound } from '@crudbench/node-base/graphql/mercurius.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { ping } from '@crudbench/node-base/store/pool.js';
import { loaders } from './loaders.js';
import { buildSchema } from './schema.js';

/**
 * createApp returns the Fastify app, not yet listening: /healthz, /readyz
 * and Mercurius on /graphql, with node-base's options, hooks and checks
 * before GraphQL (graphql/mercurius.js: the Go app's codes, statuses and
 * limits, which nest-mercurius's Mercurius driver sets too). deps: {
 * logger, pool, persons, personWriter, vacancies, users, tokens,
 * requestTimeoutMs, jit, serverFactory }; jit is Mercurius's option (0:
 * off, its default; n: a query is compiled with graphql-jit once it has
 * run n times); requestTimeoutMs (REQUEST_TIMEOUT) after a request's head
 * arrived, the query limits' analysis stops and answers 503, as the Go
 * app's does at its request's deadline.
 */
export function createApp({ logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs, jit = 0, serverFactory }) {
  const app = Fastify({
    loggerInstance: logger,
    // No line per request, as the other GraphQL apps log none.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    ...(serverFactory && { serverFactory }),
    // node-base's server answers what Node's parser refuses and closes
    // lingering; Fastify's own handler would then destroy the socket, and
    // the reset would discard that answer (the protocol suite's 431 case).
    clientErrorHandler: () => {},
  });
  addRequestChecks(app, { requestTimeoutMs });

  app.get('/healthz', async (request, reply) => reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('ok'));
  app.get('/readyz', async (request, reply) => {
    const ok = await ping(pool);
    return reply
      .code(ok ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send({ status: ok ? 'ready' : 'unavailable' });
  });
  app.setNotFoundHandler(notFound);

  app.register(mercurius, {
    ...mercuriusOptions(logger, { jit }),
    schema: buildSchema(),
    loaders,
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
  app.after(() => {
    for (const [name, hook] of Object.entries(limitHooks)) app.graphql.addHook(name, hook);
  });
  return app;
}
