// The parts of @crudbench/node-base (plain JavaScript, apps/node-base) that
// this app uses, typed for the compiler: their shapes, as the package's
// doc comments say them.

declare module '@crudbench/node-base/config.js' {
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

declare module '@crudbench/node-base/http/server.js' {
  import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
  export const MAX_BODY_BYTES: number;
  export const RETRY_AFTER: string;
  export type Answer = (req: IncomingMessage, res: ServerResponse) => void;
  export interface Answers {
    badBody: Answer;
    internal: Answer;
    unavailable?: Answer;
  }
  export type Serve = (listener: RequestListener, answers: Answers) => Server;
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
  export function isJSON(contentType: string | undefined): boolean;
  export function readBody(req: IncomingMessage): Promise<Buffer>;
  export function decodeBody(
    raw: Buffer,
    shape: Record<string, 'string' | 'int32' | 'int64' | 'date'>,
  ): Record<string, unknown> & {
    readonly nulls: string[];
  };
}

declare module '@crudbench/node-base/http/run.js' {
  import type { Server } from 'node:http';
  import type { Serve } from '@crudbench/node-base/http/server.js';
  import type { Id } from '@crudbench/node-base/http/params.js';

  /** Logger is node-base's logger (pino), as the app calls it. */
  export interface Logger {
    isLevelEnabled(level: string): boolean;
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
  export interface Pool {
    query(text: string): Promise<unknown>;
  }
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
  /** Deps is what run hands an app's start. */
  export interface Deps {
    logger: Logger;
    pool: Pool;
    persons: PersonReads;
    personWriter: PersonWrites;
    vacancies: VacancyStore;
    users: UserStore;
    tokens: TokenService;
    requestTimeoutMs: number;
    serve: Serve;
  }
  export interface Started {
    server: Server;
    listen?: () => Promise<void>;
    stop?: () => Promise<void>;
    close?: () => Promise<unknown>;
  }
  export function run(
    env: NodeJS.ProcessEnv,
    options: { signal?: AbortSignal },
    app: {
      defaultAddr: string;
      name: string;
      persons: (pool: Pool) => PersonReads;
      serveMetrics: (addr: { host: string; port: number }, pool: Pool) => Promise<Server>;
      start: (deps: Deps) => Promise<Started>;
    },
  ): Promise<void>;
}

declare module '@crudbench/node-base/store/persons.js' {
  import type { PersonReads, Pool } from '@crudbench/node-base/http/run.js';
  export function personStore(pool: Pool): PersonReads;
}

declare module '@crudbench/node-base/tokens.js' {
  export function bearerToken(header: string): string;
}

declare module '@crudbench/node-base/metrics.js' {
  import type { Server } from 'node:http';
  import type * as client from 'prom-client';
  import type { Pool } from '@crudbench/node-base/http/run.js';
  export function metricsServer(prom: typeof client): (addr: { host: string; port: number }, pool: Pool) => Promise<Server>;
}

declare module '@crudbench/node-base/store/poolMetrics.js' {
  import type * as client from 'prom-client';
  import type { Pool } from '@crudbench/node-base/http/run.js';
  export function registerPoolMetrics(prom: typeof client, registry: client.Registry, pool: Pool): void;
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

declare module '@crudbench/node-base/store/pool.js' {
  /** ping reports whether the database of pool answers within 2 s. */
  export function ping(pool: { query(text: string): Promise<unknown> }): Promise<boolean>;
}
