import type { Logger } from 'pino';
import type { PersonReads } from '@crudbench/node-base/graphql/persons.js';
import type { Pool } from '@crudbench/node-base/http/run.js';

/** Driver names the GraphQL engine the app serves with, and so Nest's platform: Apollo on Express, Mercurius on Fastify. */
export type Driver = 'apollo' | 'mercurius';

/**
 * Deps are what node-base's run (http/run.js) hands the app: the logger,
 * the pool, the stores and tokens every app takes, and the request
 * deadline.
 */
export interface Deps {
  logger: Logger;
  pool: Pool;
  persons: PersonReads;
  personWriter: unknown;
  vacancies: unknown;
  users: unknown;
  tokens: unknown;
  requestTimeoutMs: number;
}

/** DEPS is the injection token of Deps, the app's one provider from outside Nest. */
export const DEPS = Symbol('crudbench deps');
