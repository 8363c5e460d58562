// The REST contract's answers from route handlers (Web Request in,
// Response out), on node-base's rules: the bearer token and the editor
// role, the body's media type, size and members, the path's id, the
// query's parameters, the version of an update, and one place where the
// store's errors become RFC 9457 problems — the Go rest app's statuses
// and words, as express's respond.js maps them.
import { STATUS_CODES } from 'node:http';
import { AppError, EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EUNAVAILABLE, RequestError } from '@crudbench/node-base/errors.js';
import { UNSUPPORTED_MEDIA_TYPE, decodeBody, isJSON } from '@crudbench/node-base/http/json.js';
import { pathId as readPathId, queryParam as readQueryParam, updateVersion } from '@crudbench/node-base/http/params.js';
import { MAX_BODY_BYTES, RETRY_AFTER } from '@crudbench/node-base/http/server.js';
import { bearerUser } from '@crudbench/node-base/tokens.js';
import { deps, type Deps } from './deps';

// Go's net/http names a few statuses differently from Node; the Go names win.
const TITLES: Record<number, string | undefined> = { ...STATUS_CODES, 413: 'Request Entity Too Large' };

/** Fields are the per-field messages of a problem. */
export type Fields = Record<string, string>;

/** json answers value as the whole body, ending in a newline as Go's encoder does. */
export function json(status: number, value: unknown, headers: Record<string, string> = {}, type = 'application/json'): Response {
  const body = `${JSON.stringify(value)}\n`;
  return new Response(body, { status, headers: { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...headers } });
}

/** problem answers an RFC 9457 problem for the request's path. */
export function problem(req: Request, status: number, detail?: string, fields?: Fields, headers: Record<string, string> = {}): Response {
  const h = { ...headers };
  if (status === 401 && !h['WWW-Authenticate']) h['WWW-Authenticate'] = 'Bearer realm="crudbench"';
  if (status === 503) h['Retry-After'] = RETRY_AFTER;
  const doc: Record<string, unknown> = { type: 'about:blank', title: TITLES[status], status };
  if (detail) doc.detail = detail;
  doc.instance = rawPath(req);
  if (fields && Object.keys(fields).length > 0)
    doc.fields = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
  return json(status, doc, h, 'application/problem+json');
}

/** rawPath is the request's path as the client sent it, escapes and all. */
function rawPath(req: Request): string {
  const url = req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.indexOf('?', start);
  return url.slice(start, end < 0 ? undefined : end);
}

const STATUS_OF: Record<string, number> = { [ENOTFOUND]: 404, [ECONFLICT]: 409, [EUNAUTHORIZED]: 401, [EUNAVAILABLE]: 503 };

/** User is a verified token's claims. */
export interface User {
  userId: number;
  username: string;
  role: string;
}

/** Call is what a route's work gets: the request, the process's deps, and the user of its token (none for the login). */
export interface Call {
  req: Request;
  deps: Deps;
  /** params are the route's dynamic segments, decoded by Next. */
  params: Record<string, string>;
  user?: User;
}

/** Context is what Next hands a route handler beside the request. */
export interface Context {
  params: Promise<Record<string, string>>;
}

type Work = (call: Call) => Promise<Response>;

/** Access is who may call a route: anyone (the login), any user, or an editor. */
type Access = 'public' | 'reader' | 'writer';

/**
 * route returns a route handler running work for who access lets in, and
 * answering its failures as problems: node-base's RequestError with its
 * status, its AppError by code (EINVALID 400 for a query or path, 422 for
 * a body), anything else 500 without details (logged).
 */
export function route(access: Access, work: Work): (req: Request, ctx: Context) => Promise<Response> {
  return async (req, ctx) => {
    // Next takes /api/persons/ as /api/persons; the Go router does not.
    if (rawPath(req).endsWith('/')) return problem(req, 404, 'nothing lives at this path; the API is described at /openapi.yaml');
    const d = deps();
    try {
      const call: Call = { req, deps: d, params: (await ctx?.params) ?? {} };
      if (access !== 'public') {
        const refused = authenticate(req, d, call);
        if (refused) return refused;
        if (access === 'writer' && call.user?.role !== 'editor') return problem(req, 403, 'your role may read but not change data');
      }
      return await work(call);
    } catch (err) {
      return failure(req, d, err);
    }
  };
}

/** authenticate puts the token's user in call, or answers 401. */
function authenticate(req: Request, d: Deps, call: Call): Response | undefined {
  const header = req.headers.get('authorization');
  if (!header) return problem(req, 401, 'log in first: POST /api/login, then send the token as Authorization: Bearer');
  const { user, refused } = bearerUser(header, d.tokens);
  if (refused === undefined) {
    call.user = user;
    return undefined;
  }
  return problem(req, 401, refused, undefined, { 'WWW-Authenticate': 'Bearer realm="crudbench", error="invalid_token"' });
}

/** Failure is node-base's RequestError or AppError, typed (node-base is JavaScript). */
interface Failure {
  status: number;
  code: string;
  message: string;
  fields?: Fields;
  cause?: unknown;
}

function failure(req: Request, d: Deps, thrown: unknown): Response {
  const err = thrown as Failure;
  if (err instanceof RequestError) return problem(req, err.status, err.message, err.fields);
  if (err instanceof AppError && err.code === EINVALID) {
    const status = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' ? 400 : 422;
    return problem(req, status, err.message, err.fields);
  }
  if (err instanceof AppError && STATUS_OF[err.code]) {
    if (err.code === EUNAVAILABLE) d.logger.warn({ err: err.cause ?? err, method: req.method, path: rawPath(req) }, 'database unavailable');
    return problem(req, STATUS_OF[err.code], err.message, err.fields);
  }
  d.logger.error({ err, method: req.method, path: rawPath(req) }, 'internal error');
  return problem(req, 500);
}

/** Shape maps a body's members to their types (node-base's decodeBody). */
export type Shape = Record<string, 'string' | 'int32' | 'int64' | 'date'>;

/** Body is a decoded body; nulls names the members sent as null. */
export type Body = Record<string, unknown> & { readonly nulls: string[] };

/**
 * body reads the request's JSON body, at most MAX_BODY_BYTES (a larger
 * declared length is refused before it is read), and decodes it following
 * shape by node-base's rules.
 */
export async function body(req: Request, shape: Shape): Promise<Body> {
  if (!isJSON(req.headers.get('content-type'))) throw new RequestError(415, UNSUPPORTED_MEDIA_TYPE);
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  return decodeBody(Buffer.concat(chunks, size), shape);
}

const tooLarge = () => new RequestError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);

/** pathId reads the positive int64 id of a [id] route. */
export const pathId = (raw: string): number | string => readPathId(raw);

/** queryParam returns a query parameter's first value, or undefined, by node-base's rules. */
export function queryParam(req: Request, name: string): string | undefined {
  const url = new URL(req.url);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (!(k in query)) query[k] = v;
  return readQueryParam(query, url.pathname + url.search, name);
}

/** versionOf returns the version an update is based on: the body's "version" (an int32, decoded) or If-Match (node-base's rules). */
export const versionOf = (req: Request, b: Body): number =>
  updateVersion(req.headers.get('if-match') ?? undefined, b.version as number | null | undefined);

/** notAllowed is the handler of every method a route does not take: 405 with the methods it does. */
export const notAllowed =
  (allow: string) =>
  async (req: Request): Promise<Response> =>
    problem(req, 405, `${req.method} is not allowed here`, undefined, { Allow: allow });
