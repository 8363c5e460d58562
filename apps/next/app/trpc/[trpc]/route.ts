// GET (a query) or POST (a mutation) /trpc/<procedure>: crudbench-trpc's
// router, as the trpc app serves it, through tRPC's fetch adapter. Its
// refusals are the router's (zod inputs, node-base's errors in tRPC's
// codes, the deadline's SERVICE_UNAVAILABLE); the headers are the trpc
// app's (the router package's responseMeta).
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { FAILURE_TYPE, appRouter, contextOf, responseMeta } from 'crudbench-trpc/router';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { deps } from '../../../lib/deps';

export const dynamic = 'force-dynamic';

/**
 * refusal answers a call refused before tRPC runs in tRPC's error
 * envelope, as the trpc app's listener refuses it (apps/trpc/src/app.ts).
 */
function refusal(code: 'PAYLOAD_TOO_LARGE', message: string): Response {
  const httpStatus = 413;
  const data = { code, httpStatus };
  const body = JSON.stringify({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[code], data } });
  return new Response(body, { status: httpStatus, headers: { 'Content-Type': 'application/json' } });
}

async function serve(req: Request): Promise<Response> {
  const d = deps();
  const receivedAt = performance.now();
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) {
    return refusal('PAYLOAD_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
  }
  const res = await fetchRequestHandler({
    endpoint: '/trpc',
    req,
    router: appRouter,
    // Off, as in the trpc app: the runner sends one call a request, and a
    // batch would be work without a bound.
    allowBatching: false,
    createContext: ({ req }) => contextOf(d, req.headers.get('authorization'), receivedAt),
    responseMeta,
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') d.logger.error({ err: error.cause ?? error, path }, 'internal error');
      else if (error.code === 'SERVICE_UNAVAILABLE') d.logger.warn({ err: error.cause ?? error, path }, 'database unavailable');
    },
  });
  // A failure tRPC met before the procedure (a body that is not JSON, a
  // batch) has no media type of tRPC's; set here, once, for every failure.
  if (!res.ok) res.headers.set('Content-Type', FAILURE_TYPE);
  return res;
}

export const GET = serve;
export const POST = serve;
