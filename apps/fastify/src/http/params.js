import { pathId as readPathId, queryParam as readQueryParam, updateVersion } from '@crudbench/node-base/http/params.js';

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
 * body or an If-Match header carrying an ETag this API sent (node-base's
 * rules).
 */
export const versionOf = (request, bodyVersion) => updateVersion(request.headers['if-match'], bodyVersion);
