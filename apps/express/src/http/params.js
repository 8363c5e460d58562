import { RequestError, badRequest } from '@crudbench/node-base/errors.js';
import { pathId as readPathId, queryParam as readQueryParam } from '@crudbench/node-base/http/params.js';

/** pathId reads the positive int64 id in the path. */
export const pathId = (req) => readPathId(req.params.id);

/** queryParam returns a query parameter's first value, or undefined (node-base's rules). */
export const queryParam = (req, name) => readQueryParam(req.query, req.originalUrl, name);

/** setETag tells the client the version it read, for its If-Match. */
export function setETag(res, version) {
  res.set('ETag', `"${version}"`);
}

/**
 * versionOf returns the version an update is based on: "version" in the
 * body or an If-Match header carrying an ETag this API sent.
 */
export function versionOf(req, bodyVersion) {
  const header = (req.get('If-Match') ?? '').trim();
  let fromHeader;
  if (header !== '') {
    const m = /^"([+-]?\d+)"$/.exec(header);
    fromHeader = m ? Number(m[1]) : NaN;
    if (!Number.isInteger(fromHeader) || fromHeader < -(2 ** 31) || fromHeader >= 2 ** 31) {
      throw badRequest('If-Match must be one ETag as this API sends it, like "3"');
    }
  }
  if (bodyVersion !== undefined && fromHeader !== undefined && bodyVersion !== fromHeader) {
    throw badRequest("the body's version and If-Match disagree", { version: 'does not match If-Match' });
  }
  const version = bodyVersion ?? fromHeader;
  if (version === undefined) {
    throw new RequestError(428, 'an update must name the version it is based on: send "version" in the body or an If-Match header', {
      version: 'is required',
    });
  }
  return version;
}
