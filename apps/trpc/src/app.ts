// The HTTP surface: /healthz and /readyz as every crudbench app serves
// them, and the router on tRPC's standalone Node adapter under /trpc/.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { ping } from '@crudbench/node-base/store/pool.js';
import { FAILURE_TYPE, appRouter, responseMeta } from './router.js';
import { contextOf } from './trpc.js';
import type { Deps } from './deps.js';

/** TRPC_PATH is where the procedures are: procedure p at /trpc/p. */
export const TRPC_PATH = '/trpc/';

/** receivedAt marks, on a request, when its head arrived (performance.now()): its deadline counts from there. */
const receivedAt = Symbol('receivedAt');
type Received = IncomingMessage & { [receivedAt]?: number };

/** Pool is the part of pg's Pool /readyz uses. */
interface Pool {
  query(text: string): Promise<unknown>;
}

/**
 * createApp returns the request listener. Batching is off: the runner
 * sends one call a request, as tRPC's httpLink does, and a batch would
 * be work without a bound (a thousand person.list calls in one GET).
 */
export function createApp(deps: Deps & { pool: Pool }): (req: IncomingMessage, res: ServerResponse) => void {
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: TRPC_PATH,
    allowBatching: false,
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req }) => contextOf(deps, req.headers.authorization, (req as Received)[receivedAt] ?? performance.now()),
    responseMeta(opts) {
      const meta = responseMeta(opts);
      if (opts.errors.length > 0) meta.headers['Content-Type'] = FAILURE_TYPE;
      return meta;
    },
    onError({ error, path }) {
      // A request answered already (its body still arriving at the
      // deadline: node-base's 400) leaves tRPC nothing to write.
      if ((error.cause as { code?: string } | undefined)?.code === 'ERR_HTTP_HEADERS_SENT') return;
      if (error.code === 'INTERNAL_SERVER_ERROR') deps.logger.error({ err: error.cause ?? error, path }, 'internal error');
      else if (error.code === 'SERVICE_UNAVAILABLE') deps.logger.warn({ err: error.cause ?? error, path }, 'database unavailable');
    },
  });

  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('ok');
      return;
    }
    if (path === '/readyz') return ready(deps.pool, res);
    if (!path.startsWith(TRPC_PATH)) {
      sendError(res, 'NOT_FOUND', `nothing lives at this path: the procedures are at ${TRPC_PATH}<procedure>`);
      return;
    }
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      // Node reads and drops the body it will not use, so that the client
      // can finish sending it and read the answer.
      sendError(res, 'PAYLOAD_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
      return;
    }
    if (!queryIsUTF8(req.url ?? '')) {
      // URLSearchParams would read a bad escape as U+FFFD and search
      // for it; the REST apps refuse it (q=%ff), and so does this one.
      sendError(res, 'BAD_REQUEST', 'the query is not valid percent-encoded UTF-8', { input: 'must be valid UTF-8' });
      return;
    }
    (req as Received)[receivedAt] = performance.now();
    handler(req, res);
  };
}

/** queryIsUTF8 reports whether the query of url, a request target, decodes as UTF-8. */
function queryIsUTF8(url: string): boolean {
  const at = url.indexOf('?');
  if (at < 0 || !url.includes('%', at)) return true;
  try {
    decodeURIComponent(url.slice(at + 1).replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
}

/** HTTP_STATUS is the status of each error this listener writes itself, as tRPC maps its codes. */
const HTTP_STATUS: Partial<Record<TRPC_ERROR_CODE_KEY, number>> = {
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL_SERVER_ERROR: 500,
};

/**
 * sendError answers a request refused before tRPC runs in tRPC's error
 * envelope, as tRPC answers its own: the message, the JSON-RPC code, and
 * in data tRPC's code, the HTTP status and the fields refused.
 */
export function sendError(res: ServerResponse, code: TRPC_ERROR_CODE_KEY, message: string, fields?: Record<string, string>): void {
  if (res.headersSent) return;
  const httpStatus = HTTP_STATUS[code] ?? 500;
  const data = { code, httpStatus, ...(fields ? { fields } : {}) };
  const body = JSON.stringify({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data } });
  res.writeHead(httpStatus, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
}

/** ready answers 200 while the database answers a ping within 2 s, 503 otherwise. */
async function ready(pool: Pool, res: ServerResponse): Promise<void> {
  const ok = await ping(pool);
  res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(ok ? '{"status":"ready"}' : '{"status":"unavailable"}');
}
