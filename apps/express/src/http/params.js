import { pathId as readPathId, queryParam as readQueryParam, updateVersion } from '@crudbench/node-base/http/params.js';

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
 * body or an If-Match header carrying an ETag this API sent (node-base's
 * rules).
 */
export const versionOf = (req, bodyVersion) => updateVersion(req.get('If-Match'), bodyVersion);
