import type { Logger } from 'pino';

/** Driver names the GraphQL engine the app serves with, and so Nest's platform: Apollo on Express, Mercurius on Fastify. */
export type Driver = 'apollo' | 'mercurius';

/** PersonReads are node-base's person reads (graphql/persons.js) the dataloaders batch: one statement per level. */
export interface PersonReads {
  byIds(ids: readonly unknown[]): Promise<unknown[]>;
  appointmentsByPersons(ids: readonly unknown[]): Promise<unknown[]>;
  stipendsByAppointments(ids: readonly unknown[]): Promise<unknown[]>;
  fundingsByAppointments(ids: readonly unknown[]): Promise<unknown[]>;
}

/**
 * Deps are what node-base's run (http/run.js) hands the app: the logger,
 * the pool, the stores and tokens every app takes, and the request
 * deadline.
 */
export interface Deps {
  logger: Logger;
  pool: unknown;
  persons: PersonReads;
  personWriter: unknown;
  vacancies: unknown;
  users: unknown;
  tokens: unknown;
  requestTimeoutMs: number;
}

/** DEPS is the injection token of Deps, the app's one provider from outside Nest. */
export const DEPS = Symbol('crudbench deps');
