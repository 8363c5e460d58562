import { Inject, Injectable, type MiddlewareConsumer, Module, type NestMiddleware, type NestModule } from '@nestjs/common';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLModule } from '@nestjs/graphql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { apolloOptions, bodyRefusal, refuseByteOrderMark, refuseLargeQuery, refuseUnserved } from '@crudbench/node-base/graphql/apollo.js';
import { requestContext } from '@crudbench/node-base/graphql/context.js';
import { writeError } from '@crudbench/node-base/graphql/errors.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { DEPS, type Deps } from './deps.js';
import { TYPE_PATHS, transformSchema } from './schema.js';

// Nest's Apollo driver on its Express platform: the same ApolloServer
// options as the apollo app (node-base's graphql/apollo.js: the Go app's
// codes, statuses and limits), and the same Express middleware in front
// of it.

/** Express's request and response, as far as the app reads them. */
type Request = IncomingMessage & { headers: Record<string, string | undefined> };
type Response = ServerResponse & { locals: { deadline?: number; signal?: AbortSignal } };

/**
 * GraphQLRequestMiddleware is what /graphql does before Apollo: it sets
 * the request's deadline (REQUEST_TIMEOUT from now: the limits' analysis
 * stops there and answers 503, as the Go app's does), refuses what the Go
 * app refuses before GraphQL (another method, a body over 1 MiB or not
 * JSON), reads the JSON body (a byte-order mark or a body that is no JSON
 * 400 BAD_REQUEST) and refuses a query text over 16 KiB.
 */
@Injectable()
export class GraphQLRequestMiddleware implements NestMiddleware {
  private readonly readJSON = express.json({ limit: MAX_BODY_BYTES, verify: refuseByteOrderMark });

  constructor(@Inject(DEPS) private readonly deps: Deps) {}

  use(req: Request, res: Response, next: (err?: unknown) => void) {
    res.locals.deadline = performance.now() + this.deps.requestTimeoutMs;
    refuseUnserved(req, res, () =>
      this.readJSON(req, res, (err) => {
        if (!err) return refuseLargeQuery(req, res, next);
        const refused = bodyRefusal(err);
        if (!refused) return next(err);
        const [status, code, message] = refused;
        return writeError(req, res, status, code, message);
      }),
    );
  }
}

/** apolloConfig is the GraphQL module's configuration: the schema, Apollo's options and each request's context. */
function apolloConfig(deps: Deps): ApolloDriverConfig {
  return {
    driver: ApolloDriver,
    path: '/graphql',
    typePaths: TYPE_PATHS,
    transformSchema,
    ...apolloOptions(deps.logger),
    // No GraphiQL (the Go app's is a page of its own); no rewriting of
    // the statuses and codes, which are the Go app's (useStatus): Nest
    // would answer an outage 200 where the Go app answers 503.
    graphiql: false,
    autoTransformHttpErrors: false,
    preserveHttpStatusForExecutionErrors: false,
    context: ({ req, res }: { req: Request; res: Response }) =>
      requestContext(deps, req.headers.authorization, {
        deadline: res.locals.deadline ?? performance.now() + deps.requestTimeoutMs,
        signal: res.locals.signal,
      }),
  };
}

/** ApolloGraphQLModule serves /graphql with Nest's Apollo driver, behind GraphQLRequestMiddleware. */
@Module({})
export class ApolloGraphQLModule implements NestModule {
  static forRoot(deps: Deps) {
    return {
      module: ApolloGraphQLModule,
      imports: [GraphQLModule.forRoot<ApolloDriverConfig>(apolloConfig(deps))],
      providers: [GraphQLRequestMiddleware],
    };
  }

  configure(consumer: MiddlewareConsumer) {
    consumer.apply(GraphQLRequestMiddleware).forRoutes('graphql');
  }
}
