// tRPC as this app uses it: the context every call gets, the one error
// translator, the request deadline, and the procedures' three levels of
// access (anyone, a reader with a token, an editor).
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { AppError, RequestError, EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EUNAVAILABLE } from '@crudbench/node-base/errors.js';
import { bearerUser } from '@crudbench/node-base/tokens.js';
import type { Deps } from './deps.js';

/**
 * Context is what every call gets: node-base's stores, the request's
 * Authorization header (verified only by the procedures that need a
 * session) and its deadline, a performance.now() instant.
 */
export interface Context {
  deps: Deps;
  authorization: string | undefined;
  deadline: number;
}

/**
 * contextOf returns the context of a request whose head arrived at
 * receivedAt (performance.now()), with its Authorization header: the one
 * thing an adapter gives the router, whichever adapter it is.
 */
export function contextOf(deps: Deps, authorization: string | null | undefined, receivedAt: number): Context {
  return { deps, authorization: authorization ?? undefined, deadline: receivedAt + deps.requestTimeoutMs };
}

/**
 * Fields are the per-field messages of a refusal, by input member, in the
 * Go store's words where the store found them.
 */
export type Fields = Record<string, string>;

/** RefusalError is a TRPCError that names the fields it refuses. */
export class RefusalError extends TRPCError {
  readonly fields: Fields | undefined;
  constructor(code: TRPC_ERROR_CODE_KEY, message: string, fields?: Fields, cause?: unknown) {
    super({ code, message, cause });
    this.fields = fields && Object.keys(fields).length > 0 ? sorted(fields) : undefined;
  }
}

/** sorted orders fields by name, as Go's encoder orders a map's keys. */
const sorted = (fields: Fields): Fields => Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));

const t = initTRPC.context<Context>().create({
  // Never a stack in an answer, whatever NODE_ENV says (tRPC adds one
  // when isDev, which defaults to NODE_ENV !== 'production').
  isDev: false,
  errorFormatter({ shape, error }) {
    const fields = error instanceof RefusalError ? error.fields : inputFields(error);
    // An error of no refusal of ours is internal: its message (a
    // driver's, a bug's) is logged by onError, never shown.
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    const message = internal ? 'internal error' : fields && !(error instanceof RefusalError) ? 'invalid input' : shape.message;
    return { ...shape, message, data: { ...shape.data, ...(fields ? { fields } : {}) } };
  },
});

interface Issue {
  code?: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
  keys?: string[];
  message: string;
}

/**
 * inputFields reads the fields of an input the procedure's zod schema
 * refused (tRPC wraps its issues as the cause of a BAD_REQUEST): each
 * member's first message, by its path, and each member it does not take.
 * The whole input refused (none sent, or no object) is "input", in words
 * of ours: zod's own ("Invalid input: expected object, received
 * undefined") would say how the schema is written.
 */
function inputFields(error: TRPCError): Fields | undefined {
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues;
  if (error.code !== 'BAD_REQUEST' || !Array.isArray(issues)) return undefined;
  const fields: Fields = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p));
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
      for (const key of issue.keys) fields[[...path, key].join('.')] ??= 'is not a field of this request';
      continue;
    }
    if (path.length === 0) fields.input ??= "must be a JSON object of the procedure's fields";
    else fields[path.join('.')] ??= issue.message;
  }
  return sorted(fields);
}

/** CODE_OF maps node-base's error vocabulary to tRPC's codes. */
const CODE_OF: Record<string, TRPC_ERROR_CODE_KEY> = {
  [EINVALID]: 'BAD_REQUEST',
  [ENOTFOUND]: 'NOT_FOUND',
  [ECONFLICT]: 'CONFLICT',
  [EUNAUTHORIZED]: 'UNAUTHORIZED',
  [EUNAVAILABLE]: 'SERVICE_UNAVAILABLE',
};

/** CODE_OF_STATUS maps the status of a node-base RequestError to tRPC's code. */
const CODE_OF_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  428: 'PRECONDITION_FAILED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * translated is the one place a failure becomes tRPC's error: node-base's
 * AppError and RequestError by their code or status, with their fields;
 * tRPC's own (a refused input, an unknown procedure) as they are; anything
 * else internal.
 */
function translated(error: TRPCError): TRPCError {
  const cause = error.cause;
  if (cause instanceof AppError && CODE_OF[cause.code]) {
    return new RefusalError(CODE_OF[cause.code], cause.message, cause.fields, cause);
  }
  if (cause instanceof RequestError && CODE_OF_STATUS[cause.status]) {
    return new RefusalError(CODE_OF_STATUS[cause.status], cause.message, cause.fields, cause);
  }
  return error;
}

/** translate turns every failure of the procedure below it into tRPC's error (translated). */
const translate = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw translated(result.error);
  return result;
});

/** TOO_SLOW is the deadline's message, the other apps' 503 detail. */
const TOO_SLOW = 'the database did not answer in time';

/**
 * deadline answers SERVICE_UNAVAILABLE (503, with Retry-After) for a call
 * still unanswered at the request's deadline, whatever it waits for: a
 * frozen database holds each statement until pg's own timeouts, one
 * after another. The call's work goes on until those end it; its answer
 * is dropped. Each procedure uses it after its input: tRPC reads a body
 * when the input is parsed, and a body still arriving at the deadline is
 * the server's 400 (node-base's createServer), not a 503.
 */
export const deadline = t.middleware(async ({ ctx, next }) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RefusalError('SERVICE_UNAVAILABLE', TOO_SLOW)), Math.max(0, ctx.deadline - performance.now()));
  });
  try {
    return await Promise.race([next(), late]);
  } finally {
    clearTimeout(timer);
  }
});

/** LOG_IN_FIRST is the refusal of a call without a token. */
const LOG_IN_FIRST = 'log in first: call auth.login, then send the token as Authorization: Bearer';

/** authenticate lets a call with a valid bearer token through, its claims in ctx.user. */
const authenticate = t.middleware(({ ctx, next }) => {
  if (!ctx.authorization) throw new RefusalError('UNAUTHORIZED', LOG_IN_FIRST);
  const { user, refused } = bearerUser(ctx.authorization, ctx.deps.tokens);
  if (refused !== undefined) throw new RefusalError('UNAUTHORIZED', refused);
  return next({ ctx: { user } });
});

/** router makes a router of procedures. */
export const router = t.router;

/** publicProcedure is a call anyone may make (the login). */
export const publicProcedure = t.procedure.use(translate);

/** readProcedure is a call that needs a session. */
export const readProcedure = publicProcedure.use(authenticate);

/** writeProcedure is a call that needs an editor's session. */
export const writeProcedure = readProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'editor') throw new RefusalError('FORBIDDEN', 'your role may read but not change data');
  return next();
});
