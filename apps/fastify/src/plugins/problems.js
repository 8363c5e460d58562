import fp from 'fastify-plugin';
import {
  AppError,
  RequestError,
  EINVALID,
  ENOTFOUND,
  ECONFLICT,
  EUNAUTHORIZED,
  EUNAVAILABLE,
  badRequest,
} from '@crudbench/node-base/errors.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { PROBLEM_JSON, RETRY_AFTER, instanceOf, problemOf } from '../http/problem.js';

const STATUS_OF = {
  [ENOTFOUND]: 404,
  [ECONFLICT]: 409,
  [EUNAUTHORIZED]: 401,
  [EUNAVAILABLE]: 503,
};

// Fastify's own refusals of a body, in the Go app's words.
const UNSUPPORTED_MEDIA = 'the body must be JSON: send Content-Type: application/json';
const TOO_LARGE = `the body is larger than ${MAX_BODY_BYTES} bytes`;

/**
 * sendProblem answers with an RFC 9457 problem document, with the headers
 * the Go apps send beside a 401 and a 503.
 */
export function sendProblem(request, reply, status, detail, fields) {
  if (status === 401 && !reply.hasHeader('WWW-Authenticate')) {
    reply.header('WWW-Authenticate', 'Bearer realm="crudbench"');
  }
  if (status === 503) reply.header('Retry-After', RETRY_AFTER);
  return reply
    .code(status)
    .type(PROBLEM_JSON)
    .send(problemOf(status, instanceOf(request.url), detail, fields));
}

/**
 * wrongBody turns Ajv's findings on a body (all of them: allErrors) into
 * the Go app's refusal: every member the request does not take, else the
 * first member, in the schema's order, whose value has the wrong type.
 */
function wrongBody(errors) {
  const unknown = errors.filter((e) => e.keyword === 'additionalProperties').map((e) => e.params.additionalProperty);
  if (unknown.length > 0) {
    return badRequest(
      'the body has a field this request does not take',
      Object.fromEntries(unknown.map((k) => [k, 'is not a field of this request'])),
    );
  }
  const [first] = errors;
  return badRequest('a field has the wrong type', {
    [first.instancePath.slice(1)]: `must be ${first.parentSchema.description}`,
  });
}

/**
 * problems is the one place errors become answers (setErrorHandler): the
 * codes the client may know map to a status and their message; anything
 * else is logged and answered 500 without details. It also answers paths
 * that serve nothing, and writes every JSON answer as the Go app does.
 */
async function problems(fastify) {
  fastify.setErrorHandler((err, request, reply) => {
    // Fastify closes the connection after a body its parser refused, in
    // case more of it follows; one read whole leaves it clean, as in Go.
    if (request.raw.complete && reply.getHeader('connection') === 'close') {
      reply.removeHeader('connection');
    }
    if (err.validation && err.validationContext === 'body') err = wrongBody(err.validation);
    if (err instanceof RequestError) {
      return sendProblem(request, reply, err.status, err.message, err.fields);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendProblem(request, reply, 415, UNSUPPORTED_MEDIA);
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendProblem(request, reply, 413, TOO_LARGE);
    if (err instanceof AppError && err.code === EINVALID) {
      // A bad query (GET) or path (DELETE) is the request's fault, a bad body is not well-formed data.
      const { method } = request;
      const status = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? 400 : 422;
      return sendProblem(request, reply, status, err.message, err.fields);
    }
    if (err.code === 'FST_ERR_HANDLER_TIMEOUT') {
      // The request's deadline (handlerTimeout), as the Go apps' 503.
      request.log.warn({ method: request.method, path: instanceOf(request.url) }, 'database unavailable');
      return sendProblem(request, reply, 503, 'the database did not answer in time');
    }
    if (err instanceof AppError && STATUS_OF[err.code]) {
      if (err.code === EUNAVAILABLE) {
        request.log.warn({ err: err.cause ?? err, method: request.method, path: instanceOf(request.url) }, 'database unavailable');
      }
      return sendProblem(request, reply, STATUS_OF[err.code], err.message, err.fields);
    }
    // Fastify's own refusals of a request it could not route or read (a
    // path that is not percent-encoded right): their status, no internals.
    if (/^FST_/.test(err.code) && err.statusCode >= 400 && err.statusCode < 500) {
      return sendProblem(request, reply, err.statusCode);
    }
    request.log.error({ err, method: request.method, path: instanceOf(request.url) }, 'internal error');
    return sendProblem(request, reply, 500);
  });

  fastify.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, 404, 'nothing lives at this path; the API is described at /openapi.yaml'),
  );

  // Go's encoder ends a body with a newline, and net/http sends the media
  // type as the handler set it; Fastify appends a charset to every JSON
  // media type. The same bytes as the Go app, for every JSON answer.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof payload !== 'string' || !CHARSET_ADDED.has(type)) return done(null, payload);
    reply.header('content-type', CHARSET_ADDED.get(type));
    done(null, `${payload}\n`);
  });
}

const CHARSET_ADDED = new Map(['application/json', PROBLEM_JSON].map((type) => [`${type}; charset=utf-8`, type]));

export default fp(problems, { name: 'problems' });
