import { createYoga } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { sendNodeResponse } from '@whatwg-node/server';
import { requestContext } from '@crudbench/node-base/graphql/context.js';
import { mediaType, writeError } from '@crudbench/node-base/graphql/errors.js';
import { knownRootTypeRule } from '@crudbench/node-base/graphql/rules.js';
import { parseRequestBody, parseVariables } from '@crudbench/node-base/graphql/variables.js';
import { MAX_BODY_BYTES } from '@crudbench/node-base/http/server.js';
import { ping } from '@crudbench/node-base/store/pool.js';
import { useInputErrors } from './inputs.js';
import { useLimits } from './limits.js';
import { useOperationChoice } from './operations.js';
import { buildSchema } from './schema.js';

/**
 * createApp returns the request listener: /healthz, /readyz and Yoga on
 * /graphql. deps: { logger, pool, persons, personWriter, vacancies, users,
 * tokens, requestTimeoutMs }; requestTimeoutMs (REQUEST_TIMEOUT) after a
 * request's head arrived, the query limits' analysis stops and answers 503,
 * as the Go app's does at its request's deadline.
 */
export function createApp({ logger, pool, persons, personWriter, vacancies, users, tokens, requestTimeoutMs }) {
  const schema = buildSchema();
  const yoga = createYoga({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: logger,
    // Bad input first, then the limits: gqlgen reads the variables before
    // it weighs the query; and gqlparser's rule for an operation type the
    // schema has no root for; and a request Yoga could not pick an
    // operation for answered as gqlgen answers it (after the limits, which
    // parse the document).
    plugins: [
      useInputErrors(),
      useLimits(),
      { onValidate: ({ addValidationRule }) => addValidationRule(knownRootTypeRule) },
      useOperationChoice(schema),
      useRequestParsing(),
    ],
    // What is not a GraphQLError of ours is an internal error: logged, and
    // answered without details.
    maskedErrors: {
      maskError(error) {
        // Yoga refuses a mutation over GET with 405 and Allow: POST, coded
        // BAD_REQUEST; the Go app's code for a 405 is METHOD_NOT_ALLOWED.
        if (error instanceof GraphQLError && error.extensions?.http?.status === 405) {
          return new GraphQLError('a mutation must be sent with POST', {
            extensions: { code: 'METHOD_NOT_ALLOWED', http: error.extensions.http },
          });
        }
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (error instanceof GraphQLError && (!original || original instanceof GraphQLError || error.extensions?.code)) return error;
        logger.error({ err: original ?? error }, 'internal error');
        return new GraphQLError('internal error', { extensions: { code: 'INTERNAL' } });
      },
    },
    // The deadline is the server context's (handleNodeRequestAndResponse below).
    context({ request }) {
      return requestContext({ persons, personWriter, vacancies, users, tokens }, request.headers.get('authorization'));
    },
  });

  return async (req, res) => {
    const deadline = performance.now() + requestTimeoutMs;
    const path = req.url.split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('ok');
      return;
    }
    if (path === '/readyz') {
      const ok = await ping(pool);
      res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(ok ? '{"status":"ready"}' : '{"status":"unavailable"}');
      return;
    }
    if (path === '/graphql' && !ALLOWED.includes(req.method)) {
      res.setHeader('Allow', ALLOWED.join(', '));
      writeError(req, res, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here: send POST (or GET for a query)`);
      return;
    }
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      // Node reads and drops the body it will not use, so that the client
      // can finish sending it and read the answer.
      writeError(req, res, 413, 'REQUEST_TOO_LARGE', `the body is larger than ${MAX_BODY_BYTES} bytes`);
      return;
    }
    // Yoga would also read application/graphql+json and forms; the Go app,
    // and so the contract, take JSON only.
    if (path === '/graphql' && req.method === 'POST' && mediaType(req.headers['content-type']) !== 'application/json') {
      const got = req.headers['content-type'] ? `Content-Type ${req.headers['content-type']}` : 'no Content-Type';
      writeError(req, res, 415, 'UNSUPPORTED_MEDIA_TYPE', `send the request as Content-Type: application/json, not ${got}`);
      return;
    }
    // The deadline reaches the plugins as part of Yoga's context. Yoga's
    // own request listener answers an error its adapter throws (a request
    // it cannot turn into a fetch Request, say) with a 500 whose body is
    // the error's stack; the contract's 500 is INTERNAL without details.
    let response;
    try {
      response = await yoga.handleNodeRequestAndResponse(req, res, { req, res, deadline });
    } catch (err) {
      logger.error({ err }, 'internal error');
      writeError(req, res, 500, 'INTERNAL', 'internal error');
      return;
    }
    await sendNodeResponse(response, res, req);
  };
}

// The methods /graphql serves, as the Go app lists them in Allow.
const ALLOWED = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/**
 * useRequestParsing reads a POST's body and a GET's parameters with
 * node-base's variables.js, which notes the numbers of the variables as
 * written (an Int or Int64 given 1e3 is refused, as the Go app refuses
 * it), where Yoga's parsers would read 1e3 as 1000; and refuses a GET
 * whose variables or extensions parameter is not a JSON object, as the Go
 * app does (400 BAD_REQUEST), where Yoga's parser would throw and the
 * error be answered as an internal one.
 */
function useRequestParsing() {
  return {
    onRequestParse({ request, url, setRequestParser }) {
      if (request.method === 'POST') setRequestParser(parsePOST);
      else if (request.method === 'GET') setRequestParser(() => parseGET(url.searchParams));
    },
  };
}

/**
 * parsePOST reads a JSON body as Yoga's parser does, but from its bytes,
 * so that a byte-order mark stays and is refused; a body that is no JSON
 * is 400 for every client, as the Go app answers it.
 */
async function parsePOST(request) {
  const text = Buffer.from(await request.arrayBuffer()).toString('utf8');
  let body;
  try {
    body = parseRequestBody(text);
  } catch {
    throw new GraphQLError('POST body sent invalid JSON.', { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
  }
  if (typeof body !== 'object' || body === null) {
    throw new GraphQLError(`POST body is expected to be object but received ${body === null ? 'null' : typeof body}`, {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
    });
  }
  return body;
}

/** parseGET is a GET's request, as Yoga's parser reads it. */
function parseGET(params) {
  const [variables, extensions] = ['variables', 'extensions'].map((name) => {
    const raw = params.get(name);
    if (!raw) return undefined;
    const v = jsonObject(raw);
    if (!v) {
      throw new GraphQLError(`the ${name} parameter is not a JSON object like {"id": "4"}`, {
        extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
      });
    }
    return v;
  });
  return { operationName: params.get('operationName') || undefined, query: params.get('query') || undefined, variables, extensions };
}

/** jsonObject is text's JSON object, its numbers noted, or undefined when text is none. */
function jsonObject(text) {
  try {
    const v = parseVariables(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
