import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import express from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { ConfigError } from '@crudbench/node-base/config.js';
import { MAX_HEADER_BYTES } from '@crudbench/node-base/http/protocol.js';
import type { Deps, Logger, Started } from '@crudbench/node-base/http/run.js';
import type { Answers } from '@crudbench/node-base/http/server.js';
import { NestLogger } from '@crudbench/node-base/nestLogger.js';
import { AppModule } from './app.module.js';
import { PROBLEM_JSON, problemOf, writeProblem } from './http/problem.js';

/** Platform is the HTTP platform Nest runs on: Express (its default) or Fastify. */
export type Platform = 'express' | 'fastify';

/** platformOf reads NEST_PLATFORM: empty or express, or fastify (the nest-fastify row). */
export function platformOf(value = ''): Platform {
  if (value === '' || value === 'express') return 'express';
  if (value === 'fastify') return 'fastify';
  throw new ConfigError(`config: NEST_PLATFORM ${JSON.stringify(value)}: must be express or fastify`);
}

// What node-base's server answers before the platform runs, in the API's
// problem documents.
const answers: Answers = {
  badBody: (req, res) => writeProblem(req, res, 400, 'the body could not be read'),
  internal: (req, res) => writeProblem(req, res, 500),
};

/**
 * startNest builds the app (AppModule over deps) on platform and returns
 * node-base's server for it, which listens: the Go apps' HTTP rules hold
 * before Nest runs. Neither platform parses bodies (JsonBody reads them)
 * or writes Nest's start-up lines to stdout (NestLogger).
 */
export async function startNest(deps: Deps, platform: Platform): Promise<Started> {
  const options = { bodyParser: false, abortOnError: false, logger: new NestLogger(deps.logger) };
  if (platform === 'fastify') {
    let server: Started['server'] | undefined;
    const adapter = new FastifyAdapter({
      routerOptions: {
        // An id is refused by its own rule, however long (the head's
        // budget bounds it), never with Fastify's 414 past 100 characters.
        maxParamLength: MAX_HEADER_BYTES,
        // The query as node:querystring reads it, as Express does.
        querystringParser: (s: string) => parseQuery(s),
      },
      serverFactory: (handler: RequestListener) => {
        server = deps.serve(logRequests(deps.logger, handler), answers);
        return server;
      },
      // node-base's server answers what Node's parser refuses and closes
      // lingering; Fastify's own handler would then destroy the socket,
      // and the reset would discard that answer.
      clientErrorHandler: () => {},
      // A path Fastify cannot decode (a bad percent-escape) is answered
      // before Nest's routes, and so before its filter.
      frameworkErrors: (
        _err: Error,
        request: { url: string },
        reply: { code(n: number): { type(t: string): { send(b: string): void } } },
      ) =>
        reply
          .code(400)
          .type(PROBLEM_JSON)
          .send(JSON.stringify(problemOf(400, request.url.split('?')[0]))),
    } as ConstructorParameters<typeof FastifyAdapter>[0]);
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(deps), adapter, options);
    const fastify = adapter.getInstance();
    // Every body reaches JsonBody unread, whatever its media type.
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (_request, _payload, done) => done(null));
    await app.init();
    await fastify.ready();
    return { server: server!, close: () => app.close() };
  }
  const instance = express();
  // Express's own ETag would hash the body; ours is the row's version.
  instance.set('etag', false);
  instance.set('x-powered-by', false);
  instance.set('query parser', 'simple');
  // Paths as the Go app's router matches them: /api/persons/ and
  // /API/persons are not /api/persons. Express reads these two when it
  // makes its router, which the adapter's constructor does.
  instance.set('strict routing', true);
  instance.set('case sensitive routing', true);
  const adapter = new ExpressAdapter(instance);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(deps), adapter, options);
  await app.init();
  return { server: deps.serve(logRequests(deps.logger, instance), answers), close: () => app.close() };
}

/** logRequests logs every request at debug, the only level that wants them, as every app does. */
function logRequests(logger: Logger, listener: RequestListener): RequestListener {
  if (!logger.isLevelEnabled('debug')) return listener;
  return (req: IncomingMessage, res: ServerResponse) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const path = (req.url ?? '/').split('?')[0];
      logger.debug(
        { method: req.method, path, status: res.statusCode, duration_ms: Number(process.hrtime.bigint() - start) / 1e6 },
        'request',
      );
    });
    listener(req, res);
  };
}
