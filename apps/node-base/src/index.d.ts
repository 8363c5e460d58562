// The modules of @crudbench/node-base (plain JavaScript) that the
// TypeScript apps import, typed for the compiler as their doc comments
// describe them. An app reads it with "types": ["@crudbench/node-base"] in
// its tsconfig.json; a module or member no app imports is left out.

declare module '@crudbench/node-base/config.js' {
  /** Config is the configuration loadConfig reads from the environment. */
  export interface Config {
    databaseUrl: string;
    addr: { host: string; port: number };
    dbMaxConns: number;
    logLevel: string;
    authSecret: string;
    tokenTtlMs: number;
    requestTimeoutMs: number;
    metricsAddr: { host: string; port: number } | null;
    debugAddr: { host: string; port: number } | null;
    debugPause: { ms: number; every: number } | null;
  }
  /** ConfigError is a setting the environment gives wrong: the process exits with its message. */
  export class ConfigError extends Error {}
}

declare module '@crudbench/node-base/errors.js' {
  export const EINVALID: 'invalid';
  export const ENOTFOUND: 'not_found';
  export const ECONFLICT: 'conflict';
  export const EUNAUTHORIZED: 'unauthorized';
  export const EUNAVAILABLE: 'unavailable';
  export const EINTERNAL: 'internal';
  export type Fields = Record<string, string>;
  /** AppError is a failure of the data layer the client may be told about. */
  export class AppError extends Error {
    constructor(code: string, message: string, options?: { fields?: Fields; cause?: unknown });
    readonly code: string;
    readonly fields?: Fields;
  }
  /** RequestError is a request refused before it reaches the data layer, with its own status. */
  export class RequestError extends Error {
    constructor(status: number, detail: string, fields?: Fields);
    readonly status: number;
    readonly fields?: Fields;
  }
  export function badRequest(detail: string, fields?: Fields): RequestError;
}

declare module '@crudbench/node-base/tokens.js' {
  /** bearerToken is the token of an Authorization header's Bearer scheme, or '' for another. */
  export function bearerToken(header: string): string;
  /** bearerUser reads an Authorization header that was sent: { user }, a valid bearer token's claims, or { refused }, why not. */
  export function bearerUser<User>(
    header: string,
    tokens: { verify(token: string): User },
  ): { user: User; refused?: undefined } | { user?: undefined; refused: string };
}

declare module '@crudbench/node-base/http/server.js' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  export const MAX_BODY_BYTES: number;
  export const RETRY_AFTER: string;
  export type Answer = (req: IncomingMessage, res: ServerResponse) => void;
  /** Answers are the server's own answers, in the envelope of the app's API. */
  export interface Answers {
    badBody: Answer;
    internal: Answer;
    unavailable?: Answer;
  }
  /** Serve is createServer for listener with the Go apps' HTTP rules and request deadline, as run hands it to an app. */
  export type Serve = (listener: (req: IncomingMessage, res: ServerResponse) => unknown, answers: Answers) => Server;
}

declare module '@crudbench/node-base/http/protocol.js' {
  export const MAX_HEADER_BYTES: number;
}

declare module '@crudbench/node-base/http/params.js' {
  import type { ParsedUrlQuery } from 'node:querystring';
  /** Id is a positive int64 id: a number, or its digits past 2^53. */
  export type Id = number | string;
  export function pathId(raw: string): Id;
  export function queryParam(query: ParsedUrlQuery, target: string, name: string): string | undefined;
  export function updateVersion(ifMatch: string | undefined, bodyVersion: number | null | undefined): number;
}

declare module '@crudbench/node-base/http/json.js' {
  import type { IncomingMessage } from 'node:http';
  export const UNSUPPORTED_MEDIA_TYPE: string;
  export function isJSON(contentType: string | null | undefined): boolean;
  export function readBody(req: IncomingMessage): Promise<Buffer>;
  export function decodeBody(
    raw: Buffer,
    shape: Record<string, 'string' | 'int32' | 'int64' | 'date'>,
  ): Record<string, unknown> & {
    readonly nulls: string[];
  };
}

declare module '@crudbench/node-base/http/bodies.js' {
  export const PERSON: {
    readonly employeeNo: 'int32';
    readonly firstName: 'string';
    readonly lastName: 'string';
    readonly email: 'string';
    readonly phone: 'string';
    readonly department: 'string';
    readonly status: 'string';
    readonly hiredOn: 'date';
  };
  export const PERSON_UPDATE: { readonly version: 'int32' } & typeof PERSON;
  export const VACANCY: {
    readonly title: 'string';
    readonly department: 'string';
    readonly location: 'string';
    readonly employmentType: 'string';
    readonly salaryMinCents: 'int64';
    readonly salaryMaxCents: 'int64';
    readonly status: 'string';
    readonly opensOn: 'date';
    readonly closesOn: 'date';
    readonly description: 'string';
    readonly filledBy: 'int64';
  };
  export const VACANCY_UPDATE: { readonly version: 'int32' } & typeof VACANCY;
  /** personPatch returns the members a decoded PERSON_UPDATE body changes; no person member may be cleared. */
  export function personPatch(body: { readonly nulls: readonly string[] }): Record<string, unknown>;
  /** vacancyPatch returns the members a decoded VACANCY_UPDATE body changes; a null clears closesOn or filledBy. */
  export function vacancyPatch(body: { readonly nulls: readonly string[] }): Record<string, unknown>;
}

declare module '@crudbench/node-base/http/run.js' {
  import type { Server } from 'node:http';
  import type { Config } from '@crudbench/node-base/config.js';
  import type { Serve } from '@crudbench/node-base/http/server.js';
  import type { Id } from '@crudbench/node-base/http/params.js';

  /** Logger is node-base's logger (pino), as the apps call it. */
  export interface Logger {
    isLevelEnabled(level: string): boolean;
    trace(fields: object, msg?: string): void;
    debug(fields: object, msg?: string): void;
    info(fields: object, msg?: string): void;
    warn(fields: object, msg?: string): void;
    error(fields: object, msg?: string): void;
  }
  export type Row = Record<string, unknown> & { id: number; version: number };
  export interface Page {
    items: Row[];
    nextCursor: string | null;
  }
  /** Pool is the part of pg's Pool an app uses. */
  export interface Pool {
    query(text: string): Promise<unknown>;
  }
  /** PersonReads are the REST person reads (store/persons.js). */
  export interface PersonReads {
    find(page: { search?: string; after?: string; limit?: string }): Promise<Page>;
    findDetail(id: Id): Promise<Row>;
  }
  export interface PersonWrites {
    create(person: Record<string, unknown>): Promise<Row>;
    update(id: Id, version: number, patch: Record<string, unknown>): Promise<Row>;
    delete(id: Id): Promise<void>;
  }
  export interface VacancyStore {
    find(page: { status?: string; after?: string; limit?: string }): Promise<Page>;
    findById(id: Id): Promise<Row>;
    create(vacancy: Record<string, unknown>): Promise<Row>;
    update(id: Id, version: number, patch: Record<string, unknown>): Promise<Row>;
    delete(id: Id): Promise<void>;
  }
  export interface User {
    id: number;
    username: string;
    role: 'viewer' | 'editor';
  }
  export interface UserStore {
    authenticate(username: string, password: string): Promise<User>;
  }
  export interface Claims {
    userId: number;
    username: string;
    role: 'viewer' | 'editor';
  }
  export interface TokenService {
    issue(user: User): { token: string; expiresAt: Date };
    verify(token: string): Claims;
  }
  /** Deps is what run hands an app's start; persons is the app's persons(pool). */
  export interface Deps<Persons = PersonReads> {
    config: Config;
    logger: Logger;
    pool: Pool;
    persons: Persons;
    personWriter: PersonWrites;
    vacancies: VacancyStore;
    users: UserStore;
    tokens: TokenService;
    requestTimeoutMs: number;
    serve: Serve;
  }
  /** Started is what an app's start returns: its server, and in place of run's own steps its listen, stop and close. */
  export interface Started {
    server: Server;
    listen?: () => Promise<unknown>;
    stop?: () => Promise<unknown>;
    close?: () => Promise<unknown>;
  }
  export function run<Persons>(
    env: NodeJS.ProcessEnv,
    options: { signal?: AbortSignal },
    app: {
      defaultAddr: string;
      name: string;
      persons: (pool: Pool) => Persons;
      serveMetrics: (addr: { host: string; port: number }, pool: Pool) => Promise<Server>;
      start: (deps: Deps<Persons>) => Started | Promise<Started>;
    },
  ): Promise<void>;
}

declare module '@crudbench/node-base/store/persons.js' {
  import type { PersonReads, Pool } from '@crudbench/node-base/http/run.js';
  export function personStore(pool: Pool): PersonReads;
}

declare module '@crudbench/node-base/store/pool.js' {
  import type { Pool } from '@crudbench/node-base/http/run.js';
  /** ping reports whether the database of pool answers within 2 s. */
  export function ping(pool: Pool): Promise<boolean>;
}

declare module '@crudbench/node-base/metrics.js' {
  import type { Server } from 'node:http';
  import type { Pool } from '@crudbench/node-base/http/run.js';
  /** metricsServer returns an app's serveMetrics(addr, pool) with client, the app's own prom-client. */
  export function metricsServer(client: unknown): (addr: { host: string; port: number }, pool: Pool) => Promise<Server>;
}

declare module '@crudbench/node-base/nestLogger.js' {
  import type { Logger } from '@crudbench/node-base/http/run.js';
  /** NestLogger is Nest's LoggerService on the app's logger. */
  export class NestLogger {
    constructor(logger: Logger);
    log(message: unknown, ...rest: unknown[]): void;
    debug(message: unknown, ...rest: unknown[]): void;
    verbose(message: unknown, ...rest: unknown[]): void;
    warn(message: unknown, ...rest: unknown[]): void;
    error(message: unknown, ...rest: unknown[]): void;
    fatal(message: unknown, ...rest: unknown[]): void;
  }
}

declare module '@crudbench/node-base/graphql/errors.js' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  /** mediaType is a Content-Type's media type, lower case, without its parameters. */
  export function mediaType(header: string | null | undefined): string;
  /** requestErrorStatus is the status of a request error for an Accept header: 400 for application/graphql-response+json, 200 otherwise. */
  export function requestErrorStatus(accept: string | undefined): number;
  /** ErrorWriter writes one GraphQL error with its code and status on node:http's response. */
  export type ErrorWriter = (req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string) => void;
  export const writeError: ErrorWriter;
  export function responseType(accept: string | undefined): string;
}

declare module '@crudbench/node-base/graphql/answers.js' {
  import type { Answers } from '@crudbench/node-base/http/server.js';
  import type { ErrorWriter } from '@crudbench/node-base/graphql/errors.js';
  export function answers(send: ErrorWriter): Answers;
}

declare module '@crudbench/node-base/graphql/persons.js' {
  import type { Pool } from '@crudbench/node-base/http/run.js';
  /** PersonReads are the GraphQL person reads the dataloaders batch: one statement per level. */
  export interface PersonReads {
    byIds(ids: readonly unknown[]): Promise<unknown[]>;
    appointmentsByPersons(ids: readonly unknown[]): Promise<unknown[]>;
    stipendsByAppointments(ids: readonly unknown[]): Promise<unknown[]>;
    fundingsByAppointments(ids: readonly unknown[]): Promise<unknown[]>;
  }
  export function personStore(pool: Pool): PersonReads;
}

declare module '@crudbench/node-base/graphql/auth.js' {
  /** authenticate reads an Authorization header with tokens: { user } for a valid bearer token, { tokenError } for another. */
  export function authenticate(header: string | null | undefined, tokens: unknown): { user?: unknown; tokenError?: string };
}

declare module '@crudbench/node-base/graphql/context.js' {
  import type { PersonReads } from '@crudbench/node-base/graphql/persons.js';
  /** Loader is one of a request's dataloaders: each key it is asked for in a tick is read in one batch. */
  export interface Loader {
    load(key: unknown): Promise<unknown>;
  }
  /** Loaders are a request's dataloaders, one a level of a nested read. */
  export interface Loaders {
    person: Loader;
    appointments: Loader;
    stipends: Loader;
    fundings: Loader;
  }
  /** Stores are what a request's context takes from the process: the GraphQL person reads, the other stores and the tokens. */
  export interface Stores {
    persons: PersonReads;
    personWriter: unknown;
    vacancies: unknown;
    users: unknown;
    tokens: unknown;
  }
  /** Bounds are a request's deadline (a performance.now() time) and its signal, aborted when the client leaves. */
  export interface Bounds {
    deadline?: number;
    signal?: AbortSignal;
  }
  /** RequestContext is a GraphQL request's context, which node-base's resolvers read. */
  export interface RequestContext extends Stores, Bounds {
    loaders: Loaders;
    user?: unknown;
    tokenError?: string;
  }
  /** requestContext is the context of a request with this Authorization header and these bounds. */
  export function requestContext(stores: Stores, authorization: string | null | undefined, bounds?: Bounds): RequestContext;
  /** createLoaders returns a request's dataloaders over persons. */
  export function createLoaders(persons: PersonReads): Loaders;
}

declare module '@crudbench/node-base/graphql/resolvers.js' {
  type Resolver = (parent: unknown, args: Record<string, unknown>, ctx: unknown) => Promise<unknown>;
  export function createResolvers(): { resolvers: Record<string, Record<string, Resolver>> };
}

declare module '@crudbench/node-base/graphql/inputs.js' {
  export function createInputs(): { badInput: (message: string, node?: unknown) => Error };
}

declare module '@crudbench/node-base/graphql/schema.js' {
  import type { IResolvers } from '@graphql-tools/utils';
  import type { GraphQLSchema } from 'graphql';
  export function buildSchema(options: {
    makeSchema: (definitions: { typeDefs: string[]; resolvers: IResolvers }) => GraphQLSchema;
    resolvers: IResolvers;
    badInput: (message: string, node?: unknown) => Error;
    schemaDir: URL;
  }): GraphQLSchema;
}

declare module '@crudbench/node-base/graphql/apollo.js' {
  import type { ApolloServerOptionsWithSchema, BaseContext } from '@apollo/server';
  type Middleware = (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
  /** ApolloOptions are the options every Apollo app sets, beside its schema and landing page; an app adds its plugins to theirs. */
  export type ApolloOptions = Omit<ApolloServerOptionsWithSchema<BaseContext>, 'schema'> &
    Required<Pick<ApolloServerOptionsWithSchema<BaseContext>, 'plugins'>>;
  export function apolloOptions(logger: unknown): ApolloOptions;
  /** badInput is the error of bad input in a document, as the schema's scalars throw it (graphql/inputs.js). */
  export function badInput(message: string, node?: unknown): Error;
  export const refuseUnserved: Middleware;
  export const refuseLargeQuery: Middleware;
  export function refuseByteOrderMark(req: unknown, res: unknown, buf: Buffer): void;
  export function bodyRefusal(err: unknown): [number, string, string] | null;
}

declare module '@crudbench/node-base/graphql/mercurius.js' {
  export function mercuriusOptions(logger: unknown): Record<string, unknown>;
  export const limitHooks: Record<string, unknown>;
  export function addRequestChecks(app: unknown, options: { requestTimeoutMs: number }): void;
}

declare module '@crudbench/node-base/graphql/limits.js' {
  /** Refusal is a request the limits refuse: a GraphQL error code and its message. */
  export interface Refusal {
    code: string;
    message: string;
  }
  /** checkQuerySize refuses a query text longer than MAX_QUERY_BYTES bytes, before it is parsed. */
  export function checkQuerySize(query: string): Refusal | null;
}

declare module '@crudbench/node-base/graphql/variables.js' {
  /** parseRequestBody is JSON.parse(text) for a POST's body, its variables' numbers noted. */
  export function parseRequestBody(text: string): unknown;
}

declare module '@crudbench/node-base/store/personWrites.js' {
  import type { PersonWrites, Pool } from '@crudbench/node-base/http/run.js';
  export function personWriter(pool: Pool): PersonWrites;
}

declare module '@crudbench/node-base/store/users.js' {
  import type { Pool, UserStore } from '@crudbench/node-base/http/run.js';
  export function userStore(pool: Pool): UserStore;
}

declare module '@crudbench/node-base/store/vacancies.js' {
  import type { Pool, VacancyStore } from '@crudbench/node-base/http/run.js';
  export function vacancyStore(pool: Pool): VacancyStore;
}
