// What every route handler stands on. server.js opens the process's one
// pool and makes its logger and tokens, and leaves them on globalThis;
// the stores are made here, once per process, over that pool. Next
// bundles the route handlers with the workspace's packages (node-base,
// crudbench-trpc: linked into node_modules, so serverExternalPackages
// does not apply to them), so the stores must come from the same copy of
// node-base as the error classes the routes, the resolvers and the tRPC
// router test errors against; server.js's own stores would throw another
// copy's.
import type { Deps as TRPCDeps } from 'crudbench-trpc/router';
import { type PersonReads as GraphQLPersonReads, personStore as graphqlPersonStore } from '@crudbench/node-base/graphql/persons.js';
import { personWriter } from '@crudbench/node-base/store/personWrites.js';
import { personStore } from '@crudbench/node-base/store/persons.js';
import { userStore } from '@crudbench/node-base/store/users.js';
import { vacancyStore } from '@crudbench/node-base/store/vacancies.js';

/** VacancyInput is what a vacancy's create or update sets (crudbench-trpc's type of node-base's store). */
export type VacancyInput = Parameters<TRPCDeps['vacancies']['create']>[0];

/** Row is a row as the store answers it. */
export type Row = Record<string, unknown> & { id?: number; version?: number };

/** Process is what server.js leaves for the route handlers. */
interface Process {
  pool: { query(text: string): Promise<unknown> };
  logger: TRPCDeps['logger'];
  tokens: TRPCDeps['tokens'];
  requestTimeoutMs: number;
  /** schemaDir holds the Go app's GraphQL schema files. */
  schemaDir: URL;
  apollo?: { stop(): Promise<void> };
}

/** Deps are the process's pool, logger and tokens, and node-base's stores over the pool. */
export interface Deps extends TRPCDeps, Process {
  /** graphqlPersons also reads by batches: the GraphQL dataloaders' (node-base's graphql/persons.js). */
  graphqlPersons: GraphQLPersonReads;
  personWriter: {
    create(p: Record<string, unknown>): Promise<Row>;
    update(id: number | string, version: number, patch: Record<string, unknown>): Promise<Row>;
    delete(id: number | string): Promise<void>;
  };
  persons: TRPCDeps['persons'] & { findDetail(id: number | string): Promise<Row> };
}

const PROCESS = Symbol.for('crudbench-next.process');

let made: Deps | undefined;

/** deps returns the process's deps; a route reached outside server.js (next start) has none. */
export function deps(): Deps {
  if (made) return made;
  const p = (globalThis as Record<symbol, Process | undefined>)[PROCESS];
  if (!p) throw new Error('crudbench-next: start the app with `node server.js`, not `next start`');
  // The same object as server.js's, so that it sees the Apollo Server to stop.
  made = Object.assign(p, {
    persons: personStore(p.pool),
    graphqlPersons: graphqlPersonStore(p.pool),
    personWriter: personWriter(p.pool),
    vacancies: vacancyStore(p.pool),
    users: userStore(p.pool),
  }) as Deps;
  return made;
}
