import { STATUS_CODES } from 'node:http';
import { AppError, RequestError, EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EUNAVAILABLE } from '@crudbench/node-base/errors.js';
import { MAX_BODY_BYTES, RETRY_AFTER } from '@crudbench/node-base/http/server.js';

// Go's net/http names a few statuses differently from Node; the Go names win
// so that both apps send the same problem titles.
const TITLES = { ...STATUS_CODES, 413: 'Request Entity Too Large' };

/**
 * sendJSON writes value as the whole answer. Like Go's json.Encoder it ends
 * the body with a newline. A request already answered (by the deadline) is
 * left alone.
 */
export function sendJSON(res, status, value, contentType = 'application/json') {
  if (res.headersSent) return;
  const body = `${JSON.stringify(value)}\n`;
  res.status(status);
  // setHeader, not res.set: Express would append a charset the Go apps do not send.
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** sendProblem answers with an RFC 9457 problem document. */
export function sendProblem(req, res, status, detail, fields) {
  if (res.headersSent) return;
  if (status === 401 && !res.get('WWW-Authenticate')) res.set('WWW-Authenticate', 'Bearer realm="crudbench"');
  if (status === 503) res.set('Retry-After', RETRY_AFTER);
  const problem = { type: 'about:blank', title: TITLES[status], status };
  if (detail) problem.detail = detail;
  // The path as the client sent it: inside a router req.path is relative.
  problem.instance = req.originalUrl.split('?')[0];
  // Sorted like Go's encoder sorts a map's keys: the same bytes as the Go app.
  if (fields && Object.keys(fields).length > 0)
    problem.fields = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
  sendJSON(res, status, problem, 'application/problem+json');
}

const STATUS_OF = {
  [ENOTFOUND]: 404,
  [ECONFLICT]: 409,
  [EUNAUTHORIZED]: 401,
  [EUNAVAILABLE]: 503,
};

/**
 * errorHandler is the one place errors become answers: the codes the client
 * may know map to a status and their message; anything else is logged and
 * answered 500 without details.
 */
export function errorHandler(logger) {
  // Express recognises an error handler by its four parameters.
  return (err, req, res, _next) => {
    // The client went, or the body deadline closed the connection: no one reads an answer.
    if (err.type === 'request.aborted') return;
    if (err instanceof RequestError) return sendProblem(req, res, err.status, err.message, err.fields);
    // The router could not decode a path parameter (%zz): the client's path.
    if (err instanceof URIError) return sendProblem(req, res, 400, 'the path is not valid percent-encoding');
    if (err.type === 'entity.too.large') return sendProblem(req, res, 413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    if (err instanceof AppError && err.code === EINVALID) {
      // A bad query (GET) or path (DELETE) is the request's fault, a bad body is not well-formed data.
      const status = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' ? 400 : 422;
      return sendProblem(req, res, status, err.message, err.fields);
    }
    if (err instanceof AppError && STATUS_OF[err.code]) {
      if (err.code === EUNAVAILABLE) logger.warn({ err: err.cause ?? err, method: req.method, path: req.path }, 'database unavailable');
      return sendProblem(req, res, STATUS_OF[err.code], err.message, err.fields);
    }
    logger.error({ err, method: req.method, path: req.path }, 'internal error');
    sendProblem(req, res, 500);
  };
}
