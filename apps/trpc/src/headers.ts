// The headers of an answer, the same through any adapter that mounts the
// router (this app's standalone one, a Next.js route's fetch adapter).
import type { TRPCError } from '@trpc/server';
import { RETRY_AFTER } from '@crudbench/node-base/http/server.js';

/** Answered is what responseMeta reads of a call's answer: its procedures' paths (none when tRPC could not read the request) and its errors. */
export interface Answered {
  paths?: readonly string[];
  errors: readonly TRPCError[];
}

/**
 * responseMeta is an adapter's responseMeta: the login's answer is not
 * to be cached, the deadline's SERVICE_UNAVAILABLE says when to retry, a
 * missing or bad token's UNAUTHORIZED carries the Bearer challenge.
 */
export function responseMeta({ paths, errors }: Answered): { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (paths?.includes('auth.login')) headers['Cache-Control'] = 'no-store';
  if (errors.some((e) => e.code === 'SERVICE_UNAVAILABLE')) headers['Retry-After'] = RETRY_AFTER;
  if (errors.some((e) => e.code === 'UNAUTHORIZED') && !paths?.includes('auth.login')) {
    headers['WWW-Authenticate'] = 'Bearer realm="crudbench"';
  }
  return { headers };
}

/**
 * FAILURE_TYPE is the media type of every failure. tRPC sets none on one
 * it meets before it runs a procedure (a body that is not JSON, a
 * content type it does not read, a batch), and the fetch Response it
 * builds would send that JSON as text/plain: each adapter sets it (the
 * fetch adapter appends responseMeta's headers to tRPC's, so a Next.js
 * route sets it on the Response, not in responseMeta).
 */
export const FAILURE_TYPE = 'application/json';
