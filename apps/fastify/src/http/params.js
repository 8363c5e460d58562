import { RequestError, badRequest } from '@crudbench/node-base/errors.js';
import { pathId as readPathId, queryParam as readQueryParam } from '@crudbench/node-base/http/params.js';

// The path's id and the query are read here, not by a JSON schema: Ajv's
// coercion would take what the Go app refuses ("1e3", " 7", a repeated
// parameter's second value), and the store already checks the query with
// the Go store's rules and messages.

/** pathId reads the positive int64 id in the path. */
export const pathId = (request) => readPathId(request.params.id);

/** queryParam returns a query parameter's first value, or undefined (node-base's rules). */
export const queryParam = (request, name) => readQueryParam(request.query, request.raw.url, name);

/**
 * versionOf returns the version an update is based on: "version" in the
 * body or an If-Match header carrying an ETag this API sent.
 */
export function versionOf(request, bodyVersion) {
  const header = (request.headers['if-match'] ?? '').trim();
  let fromHeader;
  if (header !== '') {
    const m = /^"([+-]?\d+)"$/.exec(header);
    fromHeader = m ? Number(m[1]) : NaN;
    if (!Number.isInteger(fromHeader) || fromHeader < -(2 ** 31) || fromHeader >= 2 ** 31) {
      throw badRequest('If-Match must be one ETag as this API sends it, like "3"');
    }
  }
  if (bodyVersion != null && fromHeader !== undefined && bodyVersion !== fromHeader) {
    throw badRequest("the body's version and If-Match disagree", {
      version: 'does not match If-Match',
    });
  }
  const version = bodyVersion ?? fromHeader;
  if (version === undefined) {
    throw new RequestError(428, 'an update must name the version it is based on: send "version" in the body or an If-Match header', {
      version: 'is required',
    });
  }
  return version;
}

/** withoutNulls returns a body without its null members: a create's null is a member left out. */
export const withoutNulls = (body) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
