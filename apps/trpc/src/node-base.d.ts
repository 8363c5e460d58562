// The parts of @crudbench/node-base (JavaScript, without declarations)
// this app imports, typed loosely: the app's own types are in deps.ts.
declare module '@crudbench/node-base/config.js' {
  export class ConfigError extends Error {}
}

declare module '@crudbench/node-base/errors.js' {
  export const EINVALID: string;
  export const ENOTFOUND: string;
  export const ECONFLICT: string;
  export const EUNAUTHORIZED: string;
  export const EUNAVAILABLE: string;
  export class AppError extends Error {
    code: string;
    fields?: Record<string, string>;
  }
  export class RequestError extends Error {
    status: number;
    fields?: Record<string, string>;
  }
}

declare module '@crudbench/node-base/tokens.js' {
  export function bearerToken(header: string): string;
}

declare module '@crudbench/node-base/http/server.js' {
  export const MAX_BODY_BYTES: number;
  export const RETRY_AFTER: string;
}

declare module '@crudbench/node-base/http/run.js' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  type Answer = (req: IncomingMessage, res: ServerResponse) => void;
  export function run(
    env: NodeJS.ProcessEnv,
    opts: { signal?: AbortSignal },
    app: {
      defaultAddr: string;
      name: string;
      persons: (pool: unknown) => unknown;
      serveMetrics: (addr: { host: string; port: number }, pool: unknown) => Promise<Server>;
      start(deps: {
        pool: unknown;
        serve: (
          listener: (req: IncomingMessage, res: ServerResponse) => unknown,
          answers: { badBody: Answer; internal: Answer; unavailable?: Answer },
        ) => Server;
        [dep: string]: unknown;
      }): { server: Server } | Promise<{ server: Server }>;
    },
  ): Promise<void>;
}

declare module '@crudbench/node-base/store/persons.js' {
  export function personStore(pool: unknown): unknown;
}

declare module '@crudbench/node-base/metrics.js' {
  import type { Server } from 'node:http';
  export function metricsServer(client: unknown): (addr: { host: string; port: number }, pool: unknown) => Promise<Server>;
}

declare module '@crudbench/node-base/store/poolMetrics.js' {
  export function registerPoolMetrics(client: unknown, registry: unknown, pool: unknown): void;
}

declare module '@crudbench/node-base/store/pool.js' {
  /** ping reports whether the database of pool answers within 2 s. */
  export function ping(pool: { query(text: string): Promise<unknown> }): Promise<boolean>;
}
