import { Module } from '@nestjs/common';
import { MercuriusDriver, type MercuriusDriverConfig } from '@nestjs/mercurius';
import { GraphQLModule } from '@nestjs/graphql';
import { limitHooks, mercuriusOptions } from '@crudbench/node-base/graphql/mercurius.js';
import { requestContext } from '@crudbench/node-base/graphql/context.js';
import type { Deps } from './deps.js';
import { TYPE_PATHS, transformSchema } from './schema.js';

// Nest's Mercurius driver on its Fastify platform: the same Mercurius
// options and hooks as the mercurius app (node-base's
// graphql/mercurius.js: the Go app's codes, statuses and limits); the
// checks before GraphQL are Fastify hooks the app adds (app.ts).

/** Fastify's request, as far as the context reads it: the deadline and signal node-base's request checks set. */
interface FastifyRequest {
  headers: Record<string, string | undefined>;
  deadline: number;
  gone?: AbortSignal;
}

/**
 * mercuriusConfig is the GraphQL module's configuration: the schema,
 * Mercurius's options and hooks, and each request's context (typed as
 * the request node-base's checks decorate, which Fastify's types do not
 * know).
 */
function mercuriusConfig(deps: Deps): MercuriusDriverConfig {
  return {
    driver: MercuriusDriver,
    path: '/graphql',
    typePaths: TYPE_PATHS,
    transformSchema,
    ...mercuriusOptions(deps.logger),
    hooks: limitHooks,
    context: (request: FastifyRequest) =>
      requestContext(deps, request.headers.authorization, { deadline: request.deadline, signal: request.gone }),
  } as unknown as MercuriusDriverConfig;
}

/** MercuriusGraphQLModule serves /graphql with Nest's Mercurius driver. */
@Module({})
export class MercuriusGraphQLModule {
  static forRoot(deps: Deps) {
    return {
      module: MercuriusGraphQLModule,
      imports: [GraphQLModule.forRoot<MercuriusDriverConfig>(mercuriusConfig(deps))],
    };
  }
}
