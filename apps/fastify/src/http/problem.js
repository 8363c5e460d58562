import { STATUS_CODES } from 'node:http';

// Retry-After on every 503, in seconds, as the Go apps send it.
export const RETRY_AFTER = '5';

export const PROBLEM_JSON = 'application/problem+json';

// Go's net/http names a few statuses differently from Node; the Go names win
// so that every app sends the same problem titles.
const TITLES = { ...STATUS_CODES, 413: 'Request Entity Too Large' };

/**
 * problemOf returns the RFC 9457 problem document for status, its members
 * in the Go app's order; instance is the path as the client sent it.
 */
export function problemOf(status, instance, detail, fields) {
  const problem = { type: 'about:blank', title: TITLES[status], status };
  if (detail) problem.detail = detail;
  problem.instance = instance;
  // Sorted like Go's encoder sorts a map's keys: the same bytes as the Go app.
  if (fields && Object.keys(fields).length > 0) {
    problem.fields = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  return problem;
}

/** instanceOf returns the path of a request's target, without its query. */
export const instanceOf = (url) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** problemBytes returns a problem's document as the Go app writes it, for the request to url. */
export const problemBytes = (status, url, detail) => Buffer.from(`${JSON.stringify(problemOf(status, instanceOf(url), detail))}\n`);

/**
 * writeProblem answers res, a node:http response Fastify has not answered,
 * with a problem: for the answers node-base's server writes before or
 * beside Fastify (a body that did not arrive in time, an error Fastify let
 * through).
 */
export function writeProblem(req, res, status, detail) {
  if (res.headersSent) return;
  const body = problemBytes(status, req.url, detail);
  res.setHeader('Content-Type', PROBLEM_JSON);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.writeHead(status).end(body);
}
