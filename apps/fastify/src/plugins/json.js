import fp from 'fastify-plugin';
import { RequestError, badRequest } from '@crudbench/node-base/errors.js';
import { notWrittenAsIntegers, parseJSONObject, readBody } from '@crudbench/node-base/http/json.js';

/**
 * parseObject reads a body that must hold one JSON object, refusing it in
 * the Go app's words: what node-base's parseJSONObject refuses (not UTF-8,
 * empty, not an object, not JSON), and an integer member of schema (the
 * route's) written as 1e3 or 1.0. What else the object may hold is the
 * schema's business.
 */
function parseObject(raw, schema) {
  const { members: body, text } = parseJSONObject(raw);
  // Ajv sees 1000 where 1e3 or 1000.0 was sent, which the Go app refuses
  // for an integer member.
  for (const name of notWrittenAsIntegers(text)) {
    const member = schema.properties?.[name];
    if (member?.type?.includes('integer')) throw badRequest('a field has the wrong type', { [name]: `must be ${member.description}` });
  }
  return body;
}

/**
 * json makes application/json, at most 1 MiB, the only body this API
 * reads (Fastify answers any other media type 415), parsed by parseObject
 * rather than Fastify's parser, whose refusals are its own. Only a route
 * with a body schema reads a body, as only the Go app's handlers that
 * decode one do: a DELETE, or a path that serves nothing (404), answers at
 * once, and node-base's server ends a body no one reads at the request
 * deadline. A route with a body schema refuses a request that sent none.
 */
async function json(fastify) {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    if (!request.routeOptions.schema?.body) return done(null, undefined);
    // node-base's readBody refuses it past MAX_BODY_BYTES (a chunked body:
    // one that declares its length over it never gets here).
    readBody(payload)
      .then((raw) => parseObject(raw, request.routeOptions.schema.body))
      .then((body) => done(null, body), done);
  });
  fastify.addHook('preValidation', (request, reply, done) => {
    if (request.body === undefined && request.routeOptions.schema?.body) {
      return done(new RequestError(415, 'the body must be JSON: send Content-Type: application/json'));
    }
    done();
  });
}

export default fp(json, { name: 'json' });
