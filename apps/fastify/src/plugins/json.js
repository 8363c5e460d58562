import fp from 'fastify-plugin';
import { RequestError, badRequest } from '@crudbench/node-base/errors.js';
import { notWrittenAsIntegers } from '@crudbench/node-base/http/json.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * parseObject reads a body that must hold one JSON object, refusing it in
 * the Go app's words: not UTF-8, empty, not an object, not JSON, an
 * integer member of schema (the route's) written as 1e3 or 1.0. What else
 * the object may hold is the schema's business.
 */
function parseObject(raw, schema) {
  let text;
  try {
    text = utf8.decode(raw);
  } catch {
    throw badRequest('the body is not valid UTF-8');
  }
  // The text keeps a byte-order mark (ignoreBOM) and loses only JSON's
  // white space, as the Go app's: JSON sent over a network carries no mark
  // (RFC 8259, 8.1), and a body that starts with one is not an object.
  const trimmed = text.replace(/^[ \t\r\n]+/, '');
  if (trimmed === '') throw badRequest('the body is empty: send a JSON object');
  if (trimmed[0] !== '{') throw badRequest('the body must be a JSON object');
  let body;
  try {
    body = JSON.parse(text);
  } catch (err) {
    if (/end of JSON/i.test(err.message)) {
      throw badRequest(`the body is not valid JSON: unexpected end of JSON input (at byte ${raw.length})`);
    }
    throw badRequest(`the body is not valid JSON: ${err.message}`);
  }
  // Ajv sees 1000 where 1e3 or 1000.0 was sent, which the Go app refuses
  // for an integer member.
  for (const name of notWrittenAsIntegers(text)) {
    const member = schema.properties?.[name];
    if (member?.type?.includes('integer')) throw badRequest('a field has the wrong type', { [name]: `must be ${member.description}` });
  }
  return body;
}

/**
 * readBody reads payload whole, refusing it past MAX_BODY_BYTES (a chunked
 * body: one that declares its length over it never gets here).
 */
function readBody(payload, done) {
  const chunks = [];
  let size = 0;
  const finish = (err, raw) => {
    payload.off('data', onData).off('end', onEnd).off('error', finish);
    done(err, raw);
  };
  const onData = (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      finish(new RequestError(413, `the body is larger than ${MAX_BODY_BYTES} bytes`));
    } else chunks.push(chunk);
  };
  const onEnd = () => finish(null, Buffer.concat(chunks, size));
  payload.on('data', onData).on('end', onEnd).on('error', finish);
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
    readBody(payload, (err, raw) => {
      if (err) return done(err);
      let body;
      try {
        body = parseObject(raw, request.routeOptions.schema.body);
      } catch (err) {
        return done(err);
      }
      done(null, body);
    });
  });
  fastify.addHook('preValidation', (request, reply, done) => {
    if (request.body === undefined && request.routeOptions.schema?.body) {
      return done(new RequestError(415, 'the body must be JSON: send Content-Type: application/json'));
    }
    done();
  });
}

export default fp(json, { name: 'json' });
