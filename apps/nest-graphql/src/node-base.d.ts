// The parts of @crudbench/node-base (JavaScript, without declarations)
// that this app imports, typed as loosely as the app uses them: its own
// types are in deps.ts.

declare namespace NodeBase {
  type Request = import('node:http').IncomingMessage;
  type Response = import('node:http').ServerResponse;
  type ErrorWriter = (req: Request, res: Response, status: number, code: string, message: string) => void;
  type Answer = (req: Request, res: Response) => void;
  type Answers = { badBody: Answer; internal: Answer; unavailable?: Answer };
  type Middleware = (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
  type Resolver = (parent: unknown, args: Record<string, unknown>, ctx: unknown) => Promise<unknown>;
}

declare module '@crudbench/node-base/config.js' {
  export class ConfigError extends Error {}
}

declare module '@crudbench/node-base/http/server.js' {
  export const MAX_BODY_BYTES: number;
}

declare module '@crudbench/node-base/http/run.js' {
  import type { Server } from 'node:http';
  export function run(
    env: NodeJS.ProcessEnv,
    opts: { signal?: AbortSignal },
    app: {
      defaultAddr: string;
      name: string;
      persons: (pool: unknown) => unknown;
      serveMetrics: (addr: { host: string; port: number }, pool: unknown) => Promise<Server>;
      start(deps: {
        config: { addr: { host: string; port: number } };
        serve: (listener: (req: NodeBase.Request, res: NodeBase.Response) => unknown, answers: NodeBase.Answers) => Server;
        [dep: string]: unknown;
      }): Promise<{ server: Server; listen?: () => Promise<unknown>; stop?: () => Promise<unknown> }>;
    },
  ): Promise<void>;
}

declare module '@crudbench/node-base/graphql/answers.js' {
  export function answers(send: NodeBase.ErrorWriter): NodeBase.Answers;
}

declare module '@crudbench/node-base/graphql/errors.js' {
  export const writeError: NodeBase.ErrorWriter;
  export function responseType(accept: string | undefined): string;
}

declare module '@crudbench/node-base/metrics.js' {
  import type { Server } from 'node:http';
  export function metricsServer(client: unknown): (addr: { host: string; port: number }, pool: unknown) => Promise<Server>;
}

declare module '@crudbench/node-base/graphql/persons.js' {
  export function personStore(pool: unknown): unknown;
}

declare module '@crudbench/node-base/graphql/resolvers.js' {
  export function createResolvers(): { resolvers: Record<string, Record<string, NodeBase.Resolver>> };
}

declare module '@crudbench/node-base/graphql/inputs.js' {
  export function createInputs(): { badInput: (message: string, node?: unknown) => Error };
}

declare module '@crudbench/node-base/graphql/schema.js' {
  import type { GraphQLSchema } from 'graphql';
  export function buildSchema(options: {
    makeSchema: (definitions: { typeDefs: string[]; resolvers: Record<string, unknown> }) => GraphQLSchema;
    resolvers: Record<string, unknown>;
    badInput: (message: string, node?: unknown) => Error;
    schemaDir: URL;
  }): GraphQLSchema;
}

declare module '@crudbench/node-base/graphql/context.js' {
  export function authenticate(header: string | undefined, tokens: unknown): { user?: unknown; tokenError?: string };
}

declare module '@crudbench/node-base/graphql/apollo.js' {
  export function apolloOptions(logger: unknown): Record<string, unknown>;
  export const refuseUnserved: NodeBase.Middleware;
  export const refuseLargeQuery: NodeBase.Middleware;
  export function refuseByteOrderMark(req: unknown, res: unknown, buf: Buffer): void;
  export function bodyRefusal(err: unknown): [number, string, string] | null;
}

declare module '@crudbench/node-base/graphql/mercurius.js' {
  export function mercuriusOptions(logger: unknown): Record<string, unknown>;
  export const limitHooks: Record<string, unknown>;
  export function addRequestChecks(app: unknown, options: { requestTimeoutMs: number }): void;
}

declare module '@crudbench/node-base/nestLogger.js' {
  /** NestLogger is Nest's LoggerService on the app's pino logger. */
  export class NestLogger {
    constructor(logger: unknown);
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
  export function ping(pool: unknown): Promise<boolean>;
}
