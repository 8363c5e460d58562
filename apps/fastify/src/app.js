import { readFileSync } from 'node:fs';
import querystring from 'node:querystring';
import Fastify, { LogController } from 'fastify';
import { MAX_HEADER_BYTES } from '@crudbench/node-base/http/protocol.js';
import { MAX_BODY_BYTES, createServer } from '@crudbench/node-base/http/server.js';
import { ping } from '@crudbench/node-base/store/pool.js';
import { PROBLEM_JSON, instanceOf, problemBytes, writeProblem } from './http/problem.js';
import auth from './plugins/auth.js';
import deadline from './plugins/deadline.js';
import json from './plugins/json.js';
import problems, { sendProblem } from './plugins/problems.js';
import login from './routes/login.js';
import persons from './routes/persons.js';
import vacancies from './routes/vacancies.js';

// The API's description is the repository's one document, served as is.
const OPENAPI_URL = new URL('../../../resources/openapi.yaml', import.meta.url);

// The readiness answers, byte for byte the Go apps' (no newline).
const READY = Buffer.from('{"status":"ready"}');
const UNAVAILABLE = Buffer.from('{"status":"unavailable"}');

/**
 * buildApp returns the Fastify app: the whole surface is on this screen.
 * deps: { logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs }.
 */
export function buildApp({ logger, pool, persons: personReads, personWriter, vacancies: vacancyStore, users, tokens, requestTimeoutMs }) {
  const app = Fastify({
    loggerInstance: logger,
    logController: new RequestLog(),
    bodyLimit: MAX_BODY_BYTES,
    // Every request's deadline: a request still waiting for the database
    // then gets 503 (FST_ERR_HANDLER_TIMEOUT, answered by problems).
    handlerTimeout: Math.max(1, Math.ceil(requestTimeoutMs)),
    routerOptions: {
      // An id is refused by its own rule, however long (the head's budget
      // bounds it), never with Fastify's 414 past 100 characters.
      maxParamLength: MAX_HEADER_BYTES,
      // The query as node:querystring reads it, as Express does.
      querystringParser: (s) => querystring.parse(s),
    },
    ajv: {
      // Every finding (problems picks the Go app's one), no coercion, no
      // member dropped or filled in: the schema checks, the handler reads
      // what was sent.
      customOptions: {
        allErrors: true,
        verbose: true,
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
      },
    },
    // node-base's server holds the Go apps' HTTP rules before Fastify
    // runs, and answers what Node's parser refuses as net/http does.
    serverFactory: (handler) =>
      createServer(handler, {
        requestTimeoutMs,
        logger,
        answers: {
          badBody: (req, res) => writeProblem(req, res, 400, 'the body could not be read'),
          internal: (req, res) => writeProblem(req, res, 500),
        },
      }),
    clientErrorHandler: () => {},
    // A path Fastify cannot decode (a bad percent-escape): a 400, written
    // whole here, where no plugin's hook runs.
    frameworkErrors: (err, request, reply) => reply.code(400).type(PROBLEM_JSON).send(problemBytes(400, request.url)),
  });

  app.register(problems);
  app.register(deadline);
  app.register(json);
  app.register(auth, { tokens });

  // A declared body over 1 MiB is refused before anything else is read.
  app.addHook('onRequest', async (request, reply) => {
    if (Number(request.headers['content-length']) > MAX_BODY_BYTES) {
      return sendProblem(request, reply, 413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    }
  });

  app.get('/healthz', (request, reply) => {
    reply.header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-store');
    return reply.send('ok');
  });
  app.get('/readyz', async (request, reply) => {
    const ready = await ping(pool);
    reply.type('application/json').header('Cache-Control', 'no-store');
    return reply.code(ready ? 200 : 503).send(ready ? READY : UNAVAILABLE);
  });
  const openapi = readFileSync(OPENAPI_URL);
  app.get('/openapi.yaml', (request, reply) => reply.type('application/yaml').send(openapi));

  app.register(
    async (api) => {
      // find-my-way routes /api/persons/ to /persons/:id with an empty id;
      // the Go app has no such path.
      api.addHook('onRequest', (request, reply, done) => {
        if (request.params.id === '') reply.callNotFound();
        else done();
      });
      api.register(login, { users, tokens });
      api.register(persons, { persons: personReads, personWriter });
      api.register(vacancies, { vacancies: vacancyStore });
    },
    { prefix: '/api' },
  );
  return app;
}

/**
 * RequestLog logs each request once it is answered, at debug, the only
 * level that wants them (as every app logs them), instead of Fastify's two
 * lines at info.
 */
class RequestLog extends LogController {
  incomingRequest() {}

  routeNotFound() {}

  requestCompleted(error, request, reply) {
    if (!request.log.isLevelEnabled('debug')) return;
    request.log.debug(
      {
        method: request.method,
        path: instanceOf(request.url),
        status: reply.statusCode,
        duration_ms: reply.elapsedTime,
        err: error ?? undefined,
      },
      'request',
    );
  }
}
