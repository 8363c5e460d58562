import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import { answers } from '@crudbench/node-base/graphql/answers.js';
import { writeError } from '@crudbench/node-base/graphql/errors.js';
import { addRequestChecks } from '@crudbench/node-base/graphql/mercurius.js';
import { MAX_BODY_BYTES, type Serve } from '@crudbench/node-base/http/server.js';
import { NestLogger } from '@crudbench/node-base/nestLogger.js';
import { AppModule } from './app.module.js';
import type { Deps, Driver } from './deps.js';

/**
 * NodeBaseExpressAdapter is Nest's Express platform listening with
 * node-base's server in place of a bare node:http one: the same server
 * Nest listens with, closes, and Apollo's drain plugin drains.
 */
class NodeBaseExpressAdapter extends ExpressAdapter {
  constructor(private readonly serve: Serve) {
    super();
  }

  override initHttpServer() {
    this.httpServer = this.serve(this.getInstance(), answers(writeError));
  }
}

/**
 * createApp returns the Nest app of driver, not yet initialised: Apollo on
 * Nest's Express platform, or Mercurius on its Fastify platform, with
 * Nest's body parsers off (the GraphQL apps read JSON only, and refuse
 * the rest first), nor logging Nest's lines but through the app's logger.
 * serve, when given, is the server it listens with
 * (node-base's, as run gives it); without, Nest's platform makes a bare
 * one (the limits' test).
 */
export async function createApp(driver: Driver, deps: Deps, serve?: Serve): Promise<NestExpressApplication | NestFastifyApplication> {
  // An error while Nest builds the modules is thrown, for run to log, not
  // Nest's abort of the process.
  const options = { bodyParser: false, abortOnError: false, logger: new NestLogger(deps.logger) };
  if (driver === 'mercurius') {
    const adapter = new FastifyAdapter({
      loggerInstance: deps.logger,
      // No line per request, as the other GraphQL apps log none.
      logController: new LogController({ disableRequestLogging: true }),
      bodyLimit: MAX_BODY_BYTES,
      ...(serve && {
        serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => unknown) => serve(handler, answers(writeError)),
        // node-base's server answers what Node's parser refuses and closes
        // lingering; Fastify's own handler would then destroy the socket,
        // and the reset would discard that answer.
        clientErrorHandler: () => {},
      }),
    });
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(deps, driver), adapter, options);
    addRequestChecks(app.getHttpAdapter().getInstance(), deps);
    return app;
  }
  const adapter = serve ? new NodeBaseExpressAdapter(serve) : new ExpressAdapter();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(deps, driver), adapter, options);
  app.disable('x-powered-by');
  app.set('etag', false);
  return app;
}
